/** A URL that receives signed event deliveries (a replicated record: owners manage it anywhere). */
export interface WebhookEndpointsTable {
  id: string;
  restaurant_id: string;
  url: string;
  description: string | null;
  /** JSON array of event types, or ["*"] */
  enabled_events: string;
  /** enabled | disabled */
  status: string;
  livemode: number;
  /** whsec_… */
  secret: string;
  /** the secret before the last roll, still signed with until previous_secret_expires (Unix seconds) */
  previous_secret: string | null;
  previous_secret_expires: number | null;
  /** why it was disabled by the service itself (e.g. the receiver answered 410), else null */
  disabled_reason: string | null;
  /** which side of a linked restaurant sends its webhooks: cloud (default) | hub (on the venue's network) */
  sent_by: string;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    webhook_endpoints: true;
  }
}
