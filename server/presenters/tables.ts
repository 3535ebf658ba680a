import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { TablesTable } from '../db/tables/tables.table.ts';
import { named, unix } from '../http/schemas.ts';

export const TableSchema = named(
  'Table',
  z.object({
    id: z.string(),
    object: z.literal('table'),
    created: unix(),
    updated: unix(),
    number: z.number().int(),
    capacity: z.number().int(),
    min_capacity: z.number().int().nullable(),
    zone: z.string().nullable(),
    status: z.string().describe('the floor state; `available` on creation'),
    is_active: z.boolean(),
  }),
);
export type Table = z.output<typeof TableSchema>;

/** A venue table as the API shows it (`tbl_`). */
export function presentTable(row: Selectable<TablesTable>): Table {
  return {
    id: row.id,
    object: 'table',
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
