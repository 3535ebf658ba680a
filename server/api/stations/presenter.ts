import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { StationsTable } from '../../db/tables/stations.table.ts';
import { named, unix } from '../../http/schemas.ts';

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
  };
}
