export interface ApiKeysTable {
  id: string;
  restaurant_id: string;
  kind: 'secret' | 'widget';
  livemode: number;
  /** sha256 hex of the full key; the key itself is shown once and never stored. */
  hash: string;
  /** first characters of the key, to recognise it in a list */
  prefix: string;
  name: string | null;
  /** JSON string[] */
  scopes: string;
  /**
   * A paired screen's key: the station it shows (its lines, bump and recall), or '*' for an
   * expo screen (every station); null for any other key. See server/http/screen-keys.ts.
   */
  screen: string | null;
  last_used_at: number | null;
  revoked_at: number | null;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    api_keys: true;
  }
}
