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
    // the kitchen screen's age colours; null means the default (8 and 15 minutes)
    warn_after_minutes: row.warn_after_minutes === null ? null : Number(row.warn_after_minutes),
    late_after_minutes: row.late_after_minutes === null ? null : Number(row.late_after_minutes),
  };
}
