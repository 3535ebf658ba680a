/** Local only: the server processes that use this database (see db/processes.ts). */
export interface ServerProcessesTable {
  id: string;
  /** os.hostname() and process.pid of the process */
  host: string;
  pid: number;
  /** PostgreSQL: the process holds the session advisory lock (LOCKS.serverProcess, lock_key) while it lives */
  lock_key: number;
  /** milliseconds */
  started_at: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    server_processes: true;
  }
}
