import type { Selectable } from 'kysely';
import type { ShiftsTable } from '../../db/tables/shifts.table.ts';

export function presentShift(row: Selectable<ShiftsTable>) {
  return {
    id: row.id,
    object: 'shift' as const,
    created: row.created,
    updated: row.updated,
    user: row.user_id as string | object,
    clock_in: row.clock_in,
    clock_out: row.clock_out,
    /** null while open */
    hours: row.clock_out === null ? null : Math.round(((Number(row.clock_out) - Number(row.clock_in)) * 100) / 3600) / 100,
  };
}
