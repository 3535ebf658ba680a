import type { ServiceTabletsTable } from '../tables/service-tablets.table.ts';
import type { StaffSessionsTable } from '../tables/staff-sessions.table.ts';

/** Tables of the back office (app/web): local to their node, none replicated. */
export interface BackofficeTables {
  staff_sessions: StaffSessionsTable;
  service_tablets: ServiceTabletsTable;
}
