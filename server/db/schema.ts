import type { AnalyticsTables } from './schema/analytics.ts';
import type { BackofficeTables } from './schema/backoffice.ts';
import type { GuestTables } from './schema/guest.ts';
import type { OperatorTables } from './schema/operator.ts';
import type { OrdersTables } from './schema/orders.ts';
import type { PaymentsTables } from './schema/payments.ts';
import type { PrintersTables } from './schema/printers.ts';
import type { RealtimeTables } from './schema/realtime.ts';
import type { ReservationsTables } from './schema/reservations.ts';
import type { ScreensTables } from './schema/screens.ts';
import type { SyncTables } from './schema/sync.ts';
import type { WebhooksTables } from './schema/webhooks.ts';
import type { LocalTables, ReplicatedTables } from './replication.ts';
import type { ApiKeysTable } from './tables/api-keys.table.ts';
import type { ChangeLogTable } from './tables/change-log.table.ts';
import type { CustomersTable } from './tables/customers.table.ts';
import type { EventsTable } from './tables/events.table.ts';
import type { IdempotencyKeysTable } from './tables/idempotency-keys.table.ts';
import type { MenuCategoriesTable } from './tables/menu-categories.table.ts';
import type { MenuItemsTable } from './tables/menu-items.table.ts';
import type { ModifierGroupsTable } from './tables/modifier-groups.table.ts';
import type { NodeStateTable } from './tables/node-state.table.ts';
import type { LogClocksTable } from './tables/log-clocks.table.ts';
import type { OrderItemsTable } from './tables/order-items.table.ts';
import type { OrdersTable } from './tables/orders.table.ts';
import type { RestaurantsTable } from './tables/restaurants.table.ts';
import type { ServerProcessesTable } from './tables/server-processes.table.ts';
import type { AuthFailuresTable } from './tables/auth-failures.table.ts';
import type { StationsTable } from './tables/stations.table.ts';
import type { TablesTable } from './tables/tables.table.ts';
import type { UsersTable } from './tables/users.table.ts';

/** The foundation's tables. One line per `*.table.ts`. */
interface FoundationTables {
  node_state: NodeStateTable;
  change_log: ChangeLogTable;
  log_clocks: LogClocksTable;
  restaurants: RestaurantsTable;
  api_keys: ApiKeysTable;
  users: UsersTable;
  stations: StationsTable;
  menu_categories: MenuCategoriesTable;
  menu_items: MenuItemsTable;
  modifier_groups: ModifierGroupsTable;
  tables: TablesTable;
  customers: CustomersTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  server_processes: ServerProcessesTable;
  auth_failures: AuthFailuresTable;
}

/** The whole schema as kysely sees it; each feature lists its tables in db/schema/<feature>.ts. */
export interface DB
  extends FoundationTables,
    OrdersTables,
    ReservationsTables,
    GuestTables,
    WebhooksTables,
    AnalyticsTables,
    RealtimeTables,
    PrintersTables,
    SyncTables,
    BackofficeTables,
    OperatorTables,
    ScreensTables,
    PaymentsTables {}

/** Tables whose rows are not replicated records: local bookkeeping, outside the change log (declared in each table's file). */
export type LocalTable = keyof LocalTables & keyof DB;

/** Tables whose rows are replicated records: every write goes through db/records.ts (declared in each table's file). */
export type RecordTable = keyof ReplicatedTables & keyof DB;

// Every table says which it is, once (db/replication.ts): this does not compile while one says
// neither or both, or names a table the schema does not have.
type Undeclared = Exclude<keyof DB, keyof ReplicatedTables | keyof LocalTables>;
type DeclaredTwice = Extract<keyof ReplicatedTables, keyof LocalTables>;
type NotInSchema = Exclude<keyof ReplicatedTables | keyof LocalTables, keyof DB>;
type ReplicationDeclared = [Undeclared | DeclaredTwice | NotInSchema] extends [never]
  ? true
  : { undeclared: Undeclared; declaredTwice: DeclaredTwice; notInSchema: NotInSchema };
export const everyTableDeclaresReplication: ReplicationDeclared = true;
