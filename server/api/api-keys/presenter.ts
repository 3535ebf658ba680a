import type { Selectable } from 'kysely';
import type { ApiKeysTable } from '../../db/tables/api-keys.table.ts';

/** A key as listed: never the key itself (only its hash is stored), its first characters to recognise it. */
export function presentApiKey(row: Selectable<ApiKeysTable>) {
  return {
    id: row.id,
    object: 'api_key' as const,
    name: row.name,
    type: row.kind,
    livemode: Number(row.livemode) === 1,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes) as string[],
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
    revoked_at: row.revoked_at === null ? null : Number(row.revoked_at),
    created: Number(row.created),
  };
}
