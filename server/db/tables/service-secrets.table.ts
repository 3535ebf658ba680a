/**
 * Secrets of this installation (e.g. the captcha HMAC key), made once and shared by every
 * process on the database, so a restart or a second cloud process accepts what the first
 * signed. Local: never replicated.
 */
export interface ServiceSecretsTable {
  name: string;
  value: string;
  created: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    service_secrets: true;
  }
}
