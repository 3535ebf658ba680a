import type { Selectable } from 'kysely';
import type { TablesTable } from '../../db/tables/tables.table.ts';

/** A venue table as the API shows it (`tbl_`). */
export function presentTable(row: Selectable<TablesTable>) {
  return {
    id: row.id,
    object: 'table' as const,
    created: row.created,
    updated: row.updated,
    number: row.number,
    capacity: row.capacity,
    min_capacity: row.min_capacity,
    zone: row.zone,
    status: row.status,
    is_active: row.is_active === 1,
  };
}
