import type { Selectable } from 'kysely';
import type { StationsTable } from '../../db/tables/stations.table.ts';

export function presentStation(row: Selectable<StationsTable>) {
  return {
    id: row.id,
    object: 'station' as const,
    created: row.created,
    updated: row.updated,
    key: row.key,
    name: row.name,
    is_active: row.is_active === 1,
  };
}
