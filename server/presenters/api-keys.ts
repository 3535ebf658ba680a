import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { ApiKeysTable } from '../db/tables/api-keys.table.ts';
import { named, unix } from '../model/schemas.ts';

/** A key as listed: never the key itself (only its hash is stored), its first characters to recognise it. */
export const ApiKeySchema = named(
  'ApiKey',
  z.object({
    id: z.string(),
    object: z.literal('api_key'),
    name: z.string().nullable(),
    type: z.enum(['secret', 'widget']),
    livemode: z.boolean(),
    prefix: z.string(),
    /** scope names (auth/scopes.ts) as stored with the key */
    scopes: z.array(z.string()),
    last_used_at: unix().nullable(),
    revoked_at: unix().nullable(),
    created: unix(),
  }),
);
export type ApiKey = z.output<typeof ApiKeySchema>;

/** The answer of a create: the only time the full key is shown. */
export const NewApiKeySchema = named('NewApiKey', ApiKeySchema.extend({ secret: z.string() }));

export function presentApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    object: 'api_key',
    name: row.name,
    type: row.kind,
    livemode: Number(row.livemode) === 1,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
    revoked_at: row.revoked_at === null ? null : Number(row.revoked_at),
    created: Number(row.created),
  };
}
