/** One HTTP attempt of a delivery (local bookkeeping, written directly). */
export interface WebhookAttemptsTable {
  delivery_id: string;
  /** 1, 2, … within the delivery */
  n: number;
  restaurant_id: string;
  event_id: string;
  /** Unix seconds */
  attempted_at: number;
  /** null when no response came (timeout, refused connection) */
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  succeeded: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    webhook_attempts: true;
  }
}
