import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { StationsTable } from '../db/tables/stations.table.ts';
import { named, unix } from '../model/schemas.ts';

export const StationSchema = named(
  'Station',
  z.object({
    id: z.string(),
    object: z.literal('station'),
    created: unix(),
    updated: unix(),
    key: z.string(),
    name: z.string(),
    is_active: z.boolean(),
    /** the kitchen screen's age colours; null means the default (8 and 15 minutes) */
    warn_after_minutes: z.number().int().nullable(),
    late_after_minutes: z.number().int().nullable(),
    /** the kitchen's order of its stations (lowest first; equal: oldest first) */
    position: z.number().int(),
  }),
);
export type Station = z.output<typeof StationSchema>;

export function presentStation(row: Selectable<StationsTable>): Station {
  return {
    id: row.id,
    object: 'station',
    created: row.created,
    updated: row.updated,
    key: row.key,
    name: row.name,
    is_active: row.is_active === 1,
    warn_after_minutes: row.warn_after_minutes === null ? null : Number(row.warn_after_minutes),
    late_after_minutes: row.late_after_minutes === null ? null : Number(row.late_after_minutes),
    position: Number(row.position ?? 0),
  };
}
