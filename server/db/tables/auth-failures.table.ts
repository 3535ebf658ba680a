/** One failed try (sign-in, PIN, pairing code) under a limit's key; local, never synced (auth/failure-log.ts). */
export interface AuthFailuresTable {
  key: string;
  /** ms */
  at: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    auth_failures: true;
  }
}
