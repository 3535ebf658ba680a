import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';

export interface Reply {
  status: number;
  body: unknown;
}

/**
 * Whose keys: a restaurant, and within it a namespace: the caller (its mode and credential,
 * so another key or person replaying the same Idempotency-Key never gets the stored answer),
 * or one guest QR code.
 */
export interface IdempotencyScope {
  restaurantId: string;
  namespace: string;
}

/** An in-flight claim older than this belongs to a request that died before committing. */
const ABANDONED_AFTER_MS = 60_000;
const MAX_KEY_LENGTH = 255;
const MAX_CLAIM_ATTEMPTS = 3;

function keyInUse(): ApiError {
  return new ApiError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed. Retry shortly.',
    'Idempotency-Key',
  );
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as any)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * Idempotency-Key, as the IETF draft describes it: the same key and body replay the first
 * answer; another body is refused (422); a request while the first is still running gets
 * 409. The answer is stored in the same transaction as the records the request creates,
 * so a crash can never leave a created record without its stored answer.
 */
export async function withIdempotency(
  ctx: Context,
  services: Services,
  scope: IdempotencyScope | null,
  status: number,
  run: (trx: Transaction<DB>) => Promise<unknown>,
  refuseReplay?: (answer: any) => ApiError,
  /**
   * `transaction` (routes declared `idempotent`): the handler runs in one transaction with the
   * stored answer. `after` (every other POST and PATCH): the handler runs its own
   * transactions and the answer is stored once they have committed; a process that dies
   * between the two leaves its claim to be taken over, and the retry runs the request again.
   */
  mode: 'transaction' | 'after' = 'transaction',
): Promise<Reply> {
  const header = ctx.get('idempotency-key');
  if (!header || !scope) {
    const body = mode === 'transaction' ? await services.tx.run(run) : await run(services.db as Transaction<DB>);
    return { status, body };
  }
  if (header.length > MAX_KEY_LENGTH) {
    throw new ApiError('parameter_invalid', `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters.`, 'Idempotency-Key');
  }
  const { db, clock } = services;
  const key = `${scope.namespace}:${header}`;
  const restaurant_id = scope.restaurantId;
  const request_hash = createHash('sha256')
    .update(`${ctx.method} ${ctx.path}\n${canonical(ctx.state.body ?? null)}`)
    .digest('hex');
  const now = clock.now();
  // the claim names this process, so that if it dies the claim is freed at once
  const owner = services.process;
  await owner.register();

  // A failed request deletes its claim, so the row that made our insert conflict can be gone
  // by the time we read it. Then nobody holds the key and we claim it again, running the
  // request ourselves; the bound only matters if other requests keep claiming and failing.
  for (let attempt = 1; ; attempt++) {
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({
        restaurant_id,
        key,
        method: ctx.method,
        path: ctx.path,
        request_hash,
        state: 'in_flight',
        response_status: null,
        response_body: null,
        locked_at: now,
        created: Math.floor(now / 1000),
        owner: owner.id,
      })
      .onConflict((oc) => oc.columns(['restaurant_id', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) > 0) break;

    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('restaurant_id', '=', restaurant_id)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!existing) {
      if (attempt < MAX_CLAIM_ATTEMPTS) continue;
      throw keyInUse();
    }
    if (existing.request_hash !== request_hash) {
      throw new ApiError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
        'Idempotency-Key',
      );
    }
    if (existing.state === 'done') {
      ctx.set('Idempotent-Replayed', 'true');
      return { status: existing.response_status!, body: JSON.parse(existing.response_body!) };
    }
    // Still in flight: take it over only if the process running it died, or it has run past
    // any request's lifetime. Only one taker wins: the update names the owner it replaces.
    const gone = await owner.isGone(existing.owner);
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ locked_at: now, owner: owner.id })
      .where('restaurant_id', '=', restaurant_id)
      .where('key', '=', key)
      .where('state', '=', 'in_flight')
      .where('owner', existing.owner === null ? 'is' : '=', existing.owner)
      .$if(!gone, (q) => q.where('locked_at', '<', now - ABANDONED_AFTER_MS))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) throw keyInUse();
    break;
  }

  if (mode === 'after') return runThenStore(services, { restaurant_id, key, owner: owner.id, now }, status, run, refuseReplay);
  try {
    const body = await services.tx.run(async (trx) => {
      const result = await run(trx);
      const kept = storedAnswer(status, result, refuseReplay);
      const stored = await trx
        .updateTable('idempotency_keys')
        .set({ state: 'done', response_status: kept.status, response_body: JSON.stringify(kept.body) })
        .where('restaurant_id', '=', restaurant_id)
        .where('key', '=', key)
        .where('owner', '=', owner.id)
        .where('locked_at', '=', now) // our claim, not a later takeover by this same process
        .where('state', '=', 'in_flight')
        .executeTakeFirst();
      // Another process took the key over (it took us for dead), or this one did after the
      // abandonment window: the taker runs the request, so ours is undone rather than made twice.
      if (Number(stored.numUpdatedRows) === 0) throw keyInUse();
      return result;
    });
    return { status, body };
  } catch (err) {
    // Nothing was written: free the key so a corrected retry can use it (unless it is no
    // longer ours).
    await db
      .deleteFrom('idempotency_keys')
      .where('restaurant_id', '=', restaurant_id)
      .where('key', '=', key)
      .where('owner', '=', owner.id)
      .where('locked_at', '=', now)
      .where('state', '=', 'in_flight')
      .execute()
      .catch(() => undefined);
    throw err;
  }
}

/** The `after` mode: the handler commits its own work; its answer is stored next (see withIdempotency). */
async function runThenStore(
  services: Services,
  claim: { restaurant_id: string; key: string; owner: string; now: number },
  status: number,
  run: (trx: Transaction<DB>) => Promise<unknown>,
  refuseReplay?: (answer: any) => ApiError,
): Promise<Reply> {
  const mine = <Q extends { where: (...a: any[]) => Q }>(q: Q) =>
    q
      .where('restaurant_id', '=', claim.restaurant_id)
      .where('key', '=', claim.key)
      .where('owner', '=', claim.owner)
      .where('locked_at', '=', claim.now)
      .where('state', '=', 'in_flight');
  let result: unknown;
  try {
    result = await run(services.db as Transaction<DB>);
  } catch (err) {
    await mine(services.db.deleteFrom('idempotency_keys') as any)
      .execute()
      .catch(() => undefined);
    throw err;
  }
  const kept = storedAnswer(status, Buffer.isBuffer(result) ? JSON.parse(result.toString('utf8')) : result, refuseReplay);
  // the work is committed: a failure to keep its answer must not turn it into an error
  await mine(services.db.updateTable('idempotency_keys').set({ state: 'done', response_status: kept.status, response_body: JSON.stringify(kept.body) }) as any)
    .execute()
    .catch((err: unknown) => services.logger.warn({ err }, 'could not store an idempotent answer'));
  return { status, body: result };
}

/**
 * What is kept for a replay. Stored answers are plain rows for a day (and in backups), so an
 * answer carrying a secret (`secret`: a new API key, a webhook signing secret) is never kept
 * whole: by default a replay answers it without the secret (the retrying client learns the
 * record exists and must roll or replace the secret); a route whose answer means nothing
 * without it says so with `refuse`, and its replay is that refusal.
 */
export function storedAnswer(status: number, body: unknown, refuse?: (answer: any) => ApiError): Reply {
  if (!body || typeof body !== 'object' || !('secret' in body)) return { status, body };
  if (refuse) {
    const err = refuse(body);
    return { status: err.status, body: err.toBody() };
  }
  const { secret: _secret, ...rest } = body as Record<string, unknown>;
  return { status, body: rest };
}

/** Drops stored answers older than the retention (scheduled). */
export async function purgeIdempotencyKeys(services: Services): Promise<number> {
  const cutoff = Math.floor(services.clock.now() / 1000) - services.config.idempotencyTtlSeconds;
  const r = await services.db.deleteFrom('idempotency_keys').where('created', '<', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
