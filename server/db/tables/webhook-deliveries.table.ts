/**
 * One event to one endpoint: local bookkeeping of the node that emitted the event (not
 * replicated). The dispatcher claims due rows with a lease so two processes never send
 * the same delivery at once; an expired lease means its holder died and the row is due again.
 */
export interface WebhookDeliveriesTable {
  id: string;
  restaurant_id: string;
  event_id: string;
  endpoint_id: string;
  /** the endpoint's URL when the delivery was made (kept after the endpoint changes or goes) */
  url: string;
  /** pending | delivered | failed | cancelled */
  status: string;
  /** every attempt ever made (numbers the attempts) */
  attempt_count: number;
  /** attempts since the delivery was (re)queued: picks the backoff step */
  round_attempts: number;
  /** milliseconds; due when <= now (0 = at once); null once final */
  next_attempt_at: number | null;
  /** milliseconds; a claim is held until then */
  lease_until: number | null;
  lease_owner: string | null;
  /** Unix seconds of the successful attempt */
  delivered_at: number | null;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    webhook_deliveries: true;
  }
}
