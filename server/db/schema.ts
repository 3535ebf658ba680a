import type { ApiKeysTable } from './tables/api-keys.table.ts';
import type { ChangeLogTable } from './tables/change-log.table.ts';
import type { CustomersTable } from './tables/customers.table.ts';
import type { EventsTable } from './tables/events.table.ts';
import type { IdempotencyKeysTable } from './tables/idempotency-keys.table.ts';
import type { MenuCategoriesTable } from './tables/menu-categories.table.ts';
import type { MenuItemsTable } from './tables/menu-items.table.ts';
import type { ModifierGroupsTable } from './tables/modifier-groups.table.ts';
import type { NodeStateTable } from './tables/node-state.table.ts';
import type { OrderItemsTable } from './tables/order-items.table.ts';
import type { OrdersTable } from './tables/orders.table.ts';
import type { RestaurantsTable } from './tables/restaurants.table.ts';
import type { StationsTable } from './tables/stations.table.ts';
import type { TablesTable } from './tables/tables.table.ts';
import type { UsersTable } from './tables/users.table.ts';

/** The whole schema as kysely sees it. One line per `*.table.ts`. */
export interface DB {
  node_state: NodeStateTable;
  change_log: ChangeLogTable;
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
}

/** Tables whose rows are replicated records: every write goes through db/records.ts. */
export type RecordTable = Exclude<keyof DB, 'node_state' | 'change_log' | 'idempotency_keys'>;
