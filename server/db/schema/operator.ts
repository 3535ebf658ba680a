/**
 * Settings of this installation, not of a restaurant (the mail and SMS transports a hub's
 * owner sets in the dashboard). `value` is JSON whose secrets are sealed (operator/sealed.ts).
 * Local: never replicated, since the key that opens them stays on this machine.
 */
export interface HubSettingsTable {
  name: string;
  value: string;
  updated: number;
}

export interface OperatorTables {
  hub_settings: HubSettingsTable;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    hub_settings: true;
  }
}
