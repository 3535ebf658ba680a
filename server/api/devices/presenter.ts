import type { Selectable } from 'kysely';
import type { ApiKeysTable } from '../../db/tables/api-keys.table.ts';
import type { DevicePairingsTable } from '../../db/tables/device-pairings.table.ts';
import type { StationsTable } from '../../db/tables/stations.table.ts';
import { DEFAULT_LATE_MINUTES, DEFAULT_WARN_MINUTES } from '../../domain/menu/stations.ts';

/** A paired tablet: its widget key (never the key itself) and what it was paired for. */
export function presentDevice(pairing: Selectable<DevicePairingsTable>, key: Selectable<ApiKeysTable>) {
  return {
    id: key.id,
    object: 'device' as const,
    name: pairing.name,
    station: pairing.station,
    prefix: key.prefix,
    paired_at: pairing.used_at === null ? null : Number(pairing.used_at),
    last_used_at: key.last_used_at === null ? null : Number(key.last_used_at),
    revoked_at: key.revoked_at === null ? null : Number(key.revoked_at),
  };
}

export function presentPairingCode(row: Selectable<DevicePairingsTable> & { code: string }, publicUrl: string) {
  return {
    object: 'pairing_code' as const,
    code: row.code,
    name: row.name,
    station: row.station,
    expires_at: Number(row.expires_at),
    // what the QR on the Settings page opens: the pairing page with the code filled in
    url: `${publicUrl.replace(/\/$/, '')}/screens/pair?code=${row.code}`,
  };
}

/** A station as a screen needs it (camelCase, as every /public answer), its age colours resolved. */
export function presentScreenStation(row: Selectable<StationsTable>) {
  return {
    key: row.key,
    name: row.name,
    warnAfterMinutes: row.warn_after_minutes === null ? DEFAULT_WARN_MINUTES : Number(row.warn_after_minutes),
    lateAfterMinutes: row.late_after_minutes === null ? DEFAULT_LATE_MINUTES : Number(row.late_after_minutes),
  };
}
