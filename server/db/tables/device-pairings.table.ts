/** A pairing code for a kitchen/expo/floor tablet and, once used, the key it became. Local, not replicated. */
export interface DevicePairingsTable {
  id: string;
  restaurant_id: string;
  code_hash: string;
  name: string;
  station: string | null;
  created: number;
  expires_at: number;
  used_at: number | null;
  api_key_id: string | null;
  /** the code's first digits, unique among open codes: a wrong try names the code it aimed at (null: made before locators) */
  locator: string | null;
  /** wrong tries against this code; at PAIRING_MAX_FAILURES it pairs nothing more */
  failures: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    device_pairings: true;
  }
}
