import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { TablesTable } from '../db/tables/tables.table.ts';
import { named, unix } from '../model/schemas.ts';

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
    /** where the table is drawn on its zone's floor plan, in plan units (0–1000 each way); null: not placed yet */
    plan_x: z.number().int().nullable(),
    plan_y: z.number().int().nullable(),
    /** its size on the plan; null: drawn by its seats */
    plan_width: z.number().int().nullable(),
    plan_height: z.number().int().nullable(),
    /** null: drawn by its seats (round for two, long for more than four) */
    shape: z.enum(['square', 'round', 'rect']).nullable(),
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
    plan_x: row.plan_x,
    plan_y: row.plan_y,
    plan_width: row.plan_width,
    plan_height: row.plan_height,
    shape: (row.shape as Table['shape']) ?? null,
  };
}
