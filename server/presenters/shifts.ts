import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { ShiftsTable } from '../db/tables/shifts.table.ts';
import { named, ref, unix } from '../model/schemas.ts';
import { StaffUserSchema } from './staff.ts';

export const ShiftSchema = named(
  'Shift',
  z.object({
    id: z.string(),
    object: z.literal('shift'),
    created: unix(),
    updated: unix(),
    user: ref(StaffUserSchema),
    clock_in: unix(),
    clock_out: unix().nullable(),
    hours: z.number().nullable().describe('null while open'),
  }),
);
export type Shift = z.output<typeof ShiftSchema>;

export function presentShift(row: Selectable<ShiftsTable>): Shift {
  return {
    id: row.id,
    object: 'shift',
    created: row.created,
    updated: row.updated,
    user: row.user_id,
    clock_in: row.clock_in,
    clock_out: row.clock_out,
    /** null while open */
    hours: row.clock_out === null ? null : Math.round(((Number(row.clock_out) - Number(row.clock_in)) * 100) / 3600) / 100,
  };
}
