import type { Selectable } from 'kysely';
import { z } from 'zod';
import { listOf, named, unix } from '../model/schemas.ts';
import type { ApiKeysTable } from '../db/tables/api-keys.table.ts';
import type { DevicePairingsTable } from '../db/tables/device-pairings.table.ts';
import type { ServiceTabletsTable } from '../db/tables/service-tablets.table.ts';
import type { StationsTable } from '../db/tables/stations.table.ts';
import { DEFAULT_LATE_MINUTES, DEFAULT_WARN_MINUTES } from '../model/stations.ts';

export const DeviceSchema = named(
  'Device',
  z.object({
    id: z.string(),
    object: z.literal('device'),
    name: z.string(),
    station: z.string().nullable(),
    prefix: z.string(),
    paired_at: unix().nullable(),
    last_used_at: unix().nullable(),
    revoked_at: unix().nullable(),
  }),
);
export type Device = z.output<typeof DeviceSchema>;
export const DeviceListSchema = listOf(DeviceSchema).omit({ next_cursor: true, previous_cursor: true, url: true });

export const PairingCodeSchema = named(
  'PairingCode',
  z.object({
    object: z.literal('pairing_code'),
    code: z.string(),
    name: z.string(),
    station: z.string().nullable(),
    expires_at: unix(),
    url: z.string(),
  }),
);

export const DeviceCredentialSchema = named(
  'DeviceCredential',
  z.object({
    object: z.literal('device_credential'),
    key: z.string(),
    device: z.object({ id: z.string(), name: z.string(), station: z.string().nullable() }),
    restaurant: z.object({ name: z.string() }),
  }),
);

const ScreenStationSchema = z.object({ key: z.string(), name: z.string(), warnAfterMinutes: z.number().int(), lateAfterMinutes: z.number().int() });

export const ScreenConfigSchema = named(
  'ScreenConfig',
  z.object({
    restaurant: z.object({ name: z.string(), currency: z.string(), timezone: z.string(), language: z.string().nullable() }),
    device: z.object({ name: z.string(), station: z.string().nullable() }).nullable(),
    stations: z.array(ScreenStationSchema),
    tables: z.array(z.object({ id: z.string(), number: z.number().int() })),
    staff: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
);

/** A paired tablet: its widget key (never the key itself) and what it was paired for. */
export function presentDevice(pairing: Selectable<DevicePairingsTable>, key: Selectable<ApiKeysTable>): Device {
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

export function presentPairingCode(row: Selectable<DevicePairingsTable> & { code: string }, publicUrl: string): z.output<typeof PairingCodeSchema> {
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
export function presentScreenStation(row: Selectable<StationsTable>): z.output<typeof ScreenStationSchema> {
  return {
    key: row.key,
    name: row.name,
    warnAfterMinutes: row.warn_after_minutes === null ? DEFAULT_WARN_MINUTES : Number(row.warn_after_minutes),
    lateAfterMinutes: row.late_after_minutes === null ? DEFAULT_LATE_MINUTES : Number(row.late_after_minutes),
  };
}

/** A service tablet: where staff sign in with a PIN; never its token. */
export const ServiceTabletSchema = named(
  'ServiceTablet',
  z.object({
    id: z.string(),
    object: z.literal('service_tablet'),
    name: z.string(),
    trusted_by: z.string().describe('the manager or owner whose session trusted it'),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    created: unix(),
    last_used_at: unix().nullable(),
    expires_at: unix(),
    revoked_at: unix().nullable(),
  }),
);
export const ServiceTabletListSchema = listOf(ServiceTabletSchema).omit({ next_cursor: true, previous_cursor: true, url: true });

export function presentServiceTablet(row: Selectable<ServiceTabletsTable>): z.output<typeof ServiceTabletSchema> {
  return {
    id: row.id,
    object: 'service_tablet',
    name: row.name,
    trusted_by: row.trusted_by,
    ip: row.ip,
    user_agent: row.user_agent,
    created: Number(row.created),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
    expires_at: Number(row.expires_at),
    revoked_at: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}
