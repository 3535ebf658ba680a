import type { SyncedTable } from './merge-rules.ts';

/**
 * What a node may write on the other through sync: the one table of rules, beside the merge
 * rules. apply.ts checks a whole batch against it before writing anything.
 *
 * Ownership (every table): a change may touch only a row that belongs to the link's
 * restaurant, as this node has it stored (by id, in its table): or a row this node does not
 * have, that the change claims for that restaurant. A change naming a stored row of another
 * restaurant, or moving a row from one restaurant to another, refuses the whole batch.
 *
 * - references: columns naming another row (column → its table; `many`: a JSON list of ids).
 *   Each named row this node has must belong to the same restaurant: a line pointed at
 *   another restaurant's order would be billed into it and shown on its screens.
 * - credentials: what this node checks a caller against (a password's hash, a key's hash, the
 *   guest-token secret) or bills by (the plan). A hub sets them only on a row it creates on
 *   the cloud; on a row the cloud already has, a hub's value is never applied: a venue PC
 *   (or whoever took it over) must not be able to reset a cloud sign-in or key. So after its
 *   creation a credential is each node's own: a password changed on the hub signs in on the
 *   hub, one changed on the cloud reaches the hub too (the hub takes the cloud's word for its
 *   restaurant, as for everything else the cloud sends it), and the audit leaves them out.
 *
 * Never carried, whatever a batch says (local tables, outside SYNCED_TABLES): sessions,
 * device pairings, idempotency records, sealed settings, service secrets and sync's own
 * bookkeeping, listed in NEVER_SYNCED.
 */
export interface WriteRule {
  references?: Readonly<Record<string, { table: SyncedTable; many?: true }>>;
  credentials?: readonly string[];
}

export const WRITE_RULES: Readonly<Record<SyncedTable, WriteRule>> = {
  restaurants: { credentials: ['guest_secret', 'plan'] },
  api_keys: { credentials: ['hash', 'prefix', 'kind', 'livemode', 'scopes', 'screen'] },
  // a PIN is a sign-in too (issue 40): a hub must not replace one the cloud has, then sign in with it
  users: { credentials: ['password_hash', 'pin_hash'] },
  stations: {},
  menu_categories: { references: { parent_category_id: { table: 'menu_categories' } } },
  menu_items: { references: { category_id: { table: 'menu_categories' }, modifier_group_ids: { table: 'modifier_groups', many: true } } },
  modifier_groups: {},
  tables: {},
  customers: {},
  orders: {
    references: { table_id: { table: 'tables' }, server_id: { table: 'users' }, customer_id: { table: 'customers' }, qr_code_id: { table: 'qr_codes' }, merged_into: { table: 'orders' } },
  },
  order_items: { references: { order_id: { table: 'orders' }, menu_item_id: { table: 'menu_items' } } },
  deliveries: { references: { order_id: { table: 'orders' }, courier_id: { table: 'users' } } },
  events: {},
  reservations: { references: { customer_id: { table: 'customers' }, table_id: { table: 'tables' } } },
  waitlist_entries: { references: { customer_id: { table: 'customers' }, table_id: { table: 'tables' }, reservation_id: { table: 'reservations' } } },
  feedback: { references: { order_id: { table: 'orders' } } },
  webhook_endpoints: {},
  printers: { references: { backup_printer_id: { table: 'printers' } } },
  qr_codes: { references: { table_id: { table: 'tables' } } },
  shifts: { references: { user_id: { table: 'users' } } },
  inventory_items: {},
  sync_resolutions: {},
  payments: { references: { order_id: { table: 'orders' }, server_id: { table: 'users' } } },
  payment_refunds: { references: { payment_id: { table: 'payments' }, order_id: { table: 'orders' } } },
  cash_counts: {},
};

/**
 * Columns ending in `_id`/`_ids` that name no row of this database (a test holds every other
 * such column to be listed under references above).
 */
export const NOT_REFERENCES: Readonly<Record<string, readonly string[]>> = {
  // the delivery provider's own id for it
  deliveries: ['external_id'],
  // the rows of a conflict, of several tables (sync/conflicts.ts): checked by their ids' shape,
  // as every value that names a row is (sync/apply.ts rowIdsIn)
  sync_resolutions: ['row_ids'],
};

/** Local tables a batch can never name: sync refuses them as unknown (400). */
export const NEVER_SYNCED = [
  'staff_sessions',
  'service_tablets',
  'device_pairings',
  'auth_failures',
  'idempotency_keys',
  'service_secrets',
  'hub_settings',
  'sync_link',
  'sync_hubs',
  'sync_invites',
  'sync_conflicts',
  'sync_row_clocks',
  'home_origins',
  'cloud_pass_uses',
  'change_log',
  'log_clocks',
  'node_state',
] as const;

/** The columns of a table a hub sets only when it creates the row on the cloud. */
export const credentialsOf = (table: string): readonly string[] => WRITE_RULES[table as SyncedTable]?.credentials ?? [];
