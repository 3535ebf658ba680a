import { z } from 'zod';
import { SCOPES } from '../../auth/scopes.ts';
import { updateRecord } from '../../db/records.ts';
import { createApiKey } from '../../domain/keys/create-key.ts';
import { ApiError, mustExist } from '../../errors.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { listParams, q } from '../../http/query.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { listOf } from '../../model/schemas.ts';
import { ApiKeySchema, NewApiKeySchema, presentApiKey } from '../../presenters/api-keys.ts';

const tag = 'API keys';

const CreateKey = z.object({
  name: z.string().trim().min(1).max(100),
  type: z.enum(['secret', 'widget']).default('secret'),
  livemode: z.boolean().default(true),
  scopes: z.array(z.enum(SCOPES)).min(1).max(SCOPES.length).optional(),
});

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/api_keys',
    response: listOf(ApiKeySchema),
    summary: 'List API keys (never the keys themselves), newest first',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'api_keys:read',
    query: z.object({ ...listParams(), revoked: q.bool().optional() }),
    handler: async (c) => {
      let qb = c.db.selectFrom('api_keys').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
      if (c.query.revoked !== undefined) qb = qb.where('revoked_at', c.query.revoked ? 'is not' : 'is', null);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('api_keys'), url: '/v1/api_keys' });
      return mapPage(page, (rows) => rows.map(presentApiKey));
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/api_keys',
    response: NewApiKeySchema,
    summary: 'Create an API key; the answer carries the full key (`secret`), shown this once (a replay with the same Idempotency-Key is a 409 naming the key)',
    errors: ['state_conflict'],
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'api_keys:write',
    body: CreateKey,
    idempotent: true,
    // The secret is shown once and never stored, not even for a replay: a key without its
    // secret is of no use, so a replay says the key was made and how to get another.
    refuseReplay: (made) =>
      new ApiError('state_conflict', `This request already created the key ${made.id}; its secret was shown only in that answer. Revoke it and create another if the secret was lost.`),
    status: 201,
    handler: async (c) => {
      const caller = c.caller!;
      // a sandbox key makes sandbox keys only; no key hands out scopes it lacks
      if (c.body.livemode && !caller.livemode) throw new ApiError('key_type_not_allowed', 'A sandbox key cannot create live keys.', 'livemode');
      // left out, a secret key gets what its creator holds; a widget key its two scopes, which the creator must hold too
      const scopes = c.body.scopes ?? (c.body.type === 'widget' ? undefined : [...SCOPES].filter((s) => caller.scopes.has(s)));
      const made = await createApiKey(c.db, c.now, {
        restaurantId: c.actor().restaurantId,
        kind: c.body.type,
        livemode: c.body.livemode,
        scopes,
        name: c.body.name,
        grantedBy: caller.scopes,
      });
      const row = await c.db.selectFrom('api_keys').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
      return { ...presentApiKey(row), secret: made.key };
    },
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/api_keys/:id',
    response: ApiKeySchema,
    summary: 'Revoke an API key (it stops working within seconds); returns it with revoked_at set',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'api_keys:write',
    params: idParam('key_ id'),
    handler: async (c) => {
      const actor = c.actor();
      const row = await c.services.tx.run(async (trx) => {
        const found = mustExist(await trx.selectFrom('api_keys').selectAll().where('restaurant_id', '=', actor.restaurantId).where('id', '=', c.params.id).executeTakeFirst(), 'API key', c.params.id);
        if (found.revoked_at !== null) return found;
        const now = Math.floor(c.now / 1000);
        return (await updateRecord(trx, 'api_keys', { id: found.id, restaurant_id: actor.restaurantId }, { revoked_at: now, updated: now }))!;
      });
      return presentApiKey(row);
    },
  }),
];
