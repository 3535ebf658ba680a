import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import { approvalOf } from './approval.ts';
import type { Scope } from '../auth/scopes.ts';
import type { Executor } from '../db/records.ts';
import type { DB } from '../db/schema.ts';
import { ApiError, refusal, type ErrorCode } from '../errors.ts';
import type { Actor, Services } from '../services.ts';
import { authenticate, type Caller } from './authenticate.ts';
import { assertScreenRoute, type ScreenAccess } from './screen-keys.ts';
import { readJsonBody } from './body.ts';
import { sessionOf } from './session.ts';
import { readExpandParam } from './expand.ts';
import { withIdempotency, type IdempotencyScope } from './idempotency.ts';
import { zodToApiError } from './zod-errors.ts';
import { answeredErrorBody } from './error-middleware.ts';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * How a route treats a sandbox key, the way Stripe keeps test mode apart (docs/integrators/api.md, "Sandbox
 * keys"). A sandbox key is for integrators' tests: it must never change what live guests see
 * nor read personal data.
 * - `own_mode`: records that carry a mode (orders, reservations, waitlist, events, webhook
 *   endpoints, print jobs); a sandbox key reads and writes only the sandbox's own.
 * - `read_only`: the live restaurant's shared configuration (menu, tables, settings…), which
 *   a sandbox key may read: only on GET routes.
 * - `live_only`: refused to a sandbox key (403 key_type_not_allowed): changes to shared
 *   configuration, personal data (customers, staff pay and email, guest feedback) and
 *   figures made of live data only (analytics).
 * - `keyless`: takes no API key (guest and meta routes).
 */
export const SANDBOX_POLICIES = ['own_mode', 'read_only', 'live_only', 'keyless'] as const;
export type SandboxPolicy = (typeof SANDBOX_POLICIES)[number];

/** A route left undeclared (cast past the type) is treated as the strictest policy. */
export function sandboxPolicyOf(spec: Pick<RouteSpec, 'method' | 'sandbox'>): SandboxPolicy {
  if (!SANDBOX_POLICIES.includes(spec.sandbox)) return 'live_only';
  if (spec.sandbox === 'read_only' && spec.method !== 'get') return 'live_only';
  return spec.sandbox;
}

function refuseSandbox(message: string, param?: string): ApiError {
  return new ApiError('key_type_not_allowed', message, param);
}

export interface Call<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** validated expand paths (empty when none asked) */
  expand: string[];
  /** the API key's holder; null on guest routes */
  caller: Caller | null;
  services: Services;
  ctx: Context;
  /** the transaction of an idempotent route, else the plain connection */
  db: Executor;
  now: number;
  /** the caller as a domain actor; throws on guest routes */
  actor(): Actor;
  /**
   * A route that declares `approval`: the manager approving what it does (a PIN in the body's
   * `manager_pin`, checked before its transaction), asked only when the command needs it.
   */
  approve: () => Promise<string | null>;
}

/**
 * What a handler may return: the output of the route's response schema (or the cached bytes
 * of one, http/cached-json.ts); anything at all while a route declares none.
 */
export type Reply<R> = [R] extends [z.ZodType] ? z.output<R> | Buffer | Answered : unknown;

/**
 * A handler that wrote its answer itself (the cloud's sync routes: gzip-compressed, or streamed
 * with heartbeats while a long poll waits, sync/wire.ts) returns this; its `response` still
 * describes the JSON it sends.
 */
export class Answered {
  private readonly answered = true;
}
export const ANSWERED = new Answered();

export interface RouteSpec<P extends z.ZodType = any, Q extends z.ZodType = any, B extends z.ZodType = any, R extends z.ZodType | undefined = any> {
  method: Method;
  /** koa-router path, e.g. /v1/menu_items/:id */
  path: string;
  summary: string;
  tag: string;
  auth: 'secret' | 'widget' | 'none';
  scope?: Scope;
  params?: P;
  query?: Q;
  body?: B;
  /** root type for `expand` (see http/expand.ts); routes without it refuse the parameter */
  expand?: string;
  /**
   * true: honours Idempotency-Key, the handler running inside one transaction with the stored
   * answer (it must write through `c.db`). Unset: a keyed POST or PATCH honours it too, its
   * answer stored once the handler's own transactions have committed (see `idempotencyOf`).
   * false: the route takes no Idempotency-Key.
   */
  idempotent?: boolean;
  /**
   * An idempotent route whose answer carries a `secret`: the secret is never stored
   * (http/idempotency.ts, storedAnswer); a replay answers without it, or, with this, the
   * refusal made here from the first answer.
   */
  refuseReplay?: (answer: z.output<NonNullable<R>>) => ApiError;
  /** Which paired screens' keys may call this (http/screen-keys.ts); none when unset. */
  screens?: ScreenAccess;
  /** What a sandbox key (sk_test_…) may do here; every route says (see SandboxPolicy). */
  sandbox: SandboxPolicy;
  /**
   * Keyless routes: whose Idempotency-Keys these are (a guest route names its QR code), so a
   * guest's retried submit replays too. Keyed routes use the caller's restaurant and mode.
   */
  idempotencyScope?: (c: Call<z.output<P>, z.output<Q>, z.output<B>>) => Promise<IdempotencyScope>;
  /** the body carries `manager_pin`: a manager approves what a server does here (http/approval.ts) */
  approval?: boolean;
  /** success status, default 200 */
  status?: number;
  /** the success answer's shape (the presenter's schema); documented in the OpenAPI document */
  response?: R;
  /** a success answer that is not JSON (e.g. image/svg+xml); `response` then describes nothing */
  responseType?: string;
  /**
   * The refusals of this route beyond those every route of its kind shares (http/openapi-errors.ts
   * derives those from auth, params, query, body and idempotency).
   */
  errors?: ErrorCode[];
  /** runs before anything of the request is read: the guest routes take their per-IP limit here, so bad input counts too */
  preflight?: (ctx: Context, services: Services) => void;
  /**
   * Reads and validates the body itself, in place of the API's JSON reader and `body`
   * (which then only documents it): the cloud's sync routes take gzip-compressed batches
   * larger than the API's limit, and keep a refusal of an authenticated hub on its row.
   */
  readBody?: (ctx: Context, services: Services) => Promise<unknown>;
  /** mounted only on a server of this role (the cloud's side of sync); documented either way */
  role?: 'cloud';
  handler: (c: Call<z.output<P>, z.output<Q>, z.output<B>>) => Promise<Reply<R>>;
}

const noApproval = async (): Promise<never> => {
  throw new Error('route declares no approval');
};

/** Types a route's definition; the route exists once listed in `server/api/routes.ts`. */
export function defineRoute<
  P extends z.ZodType = z.ZodObject<{}>,
  Q extends z.ZodType = z.ZodObject<{}>,
  B extends z.ZodType = z.ZodAny,
  R extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B, R>): RouteSpec<P, Q, B, R> {
  return spec;
}

function parse<T extends z.ZodType>(schema: T, input: unknown, where: 'body' | 'query' | 'path'): z.output<T> {
  const r = schema.safeParse(input);
  if (!r.success) throw zodToApiError(r.error, input, where);
  return r.data;
}

const EMPTY_STRICT = z.object({}).strict();

function strictQuery(schema: z.ZodType | undefined): z.ZodType {
  if (!schema) return EMPTY_STRICT;
  return schema instanceof z.ZodObject ? schema.strict() : schema;
}

/** An unknown parameter is named as such even when a required one is missing too. */
function refuseUnknown(known: Set<string> | null, query: Record<string, unknown>): void {
  if (!known) return;
  const unknown = Object.keys(query).find((k) => !known.has(k));
  if (unknown !== undefined) {
    throw refusal('parameter_unknown', `Received unknown query parameter: ${unknown}`, unknown);
  }
}

/**
 * How a route honours Idempotency-Key: every POST and PATCH does (a retried action or
 * update replays its first answer), those declared `idempotent` in one transaction with
 * their writes. A keyless route needs its own scope (`idempotencyScope`), else it has none.
 */
export function idempotencyOf(spec: Pick<RouteSpec, 'method' | 'auth' | 'idempotent' | 'idempotencyScope' | 'responseType'>): 'transaction' | 'after' | null {
  if (spec.idempotent === true) return 'transaction';
  if (spec.idempotent === false || spec.responseType) return null;
  if (spec.method !== 'post' && spec.method !== 'patch') return null;
  return spec.auth !== 'none' || spec.idempotencyScope ? 'after' : null;
}

export function mountRoutes(router: Router, services: Services, specs: readonly RouteSpec[]): void {
  for (const spec of specs) {
    if (spec.role && spec.role !== services.config.role) continue;
    const sandbox = sandboxPolicyOf(spec);
    const querySchema = strictQuery(spec.query);
    const knownQuery = querySchema instanceof z.ZodObject ? new Set(Object.keys(querySchema.shape)) : null;
    const idempotency = idempotencyOf(spec);
    router[spec.method](spec.path, async (ctx) => {
      spec.preflight?.(ctx, services);
      // ids and query values never hold a NUL either (see readJsonBody)
      if (ctx.url.includes('%00')) throw refusal('parameter_invalid', 'The URL must not contain NUL characters (%00).');
      // a session's CSRF token is checked before the body is read: a forged form post is refused as such
      if (spec.auth !== 'none') await sessionOf(ctx, services);
      const ownBody = spec.readBody ? await spec.readBody(ctx, services) : await readJsonBody(ctx, services.config.bodyLimitBytes);
      const caller = spec.auth === 'none' ? null : await authenticate(ctx, services, spec.auth, spec.scope);
      if (caller?.screen) assertScreenRoute(caller.screen, spec.screens);
      const sandboxCaller = caller !== null && !caller.livemode;
      if (sandboxCaller && sandbox === 'live_only') {
        throw refuseSandbox(
          'A sandbox key (sk_test_…) cannot use this route: it changes the live restaurant, or reads personal data or live figures. Use a live key.',
        );
      }
      const rawQuery: Record<string, unknown> = { ...ctx.query };
      let expand: string[] = [];
      if (spec.expand) {
        const asked = readExpandParam(rawQuery);
        delete rawQuery['expand'];
        delete rawQuery['expand[]'];
        if (asked) expand = services.registry.expandables.validate(spec.expand, asked);
        const personal = sandboxCaller ? services.registry.expandables.personal(spec.expand, expand) : null;
        if (personal) throw refuseSandbox(`'${personal}' expands to personal data (staff email and pay), which a sandbox key cannot read.`, 'expand');
      }
      refuseUnknown(knownQuery, rawQuery);
      const params = spec.params ? parse(spec.params, ctx.params, 'path') : ctx.params;
      const query = parse(querySchema, rawQuery, 'query');
      // an empty body is an empty object; a JSON `null` is a body that is not an object
      const body = spec.readBody ? ownBody : spec.body ? parse(spec.body, ctx.state.body === undefined ? {} : ctx.state.body, 'body') : undefined;
      const now = services.clock.now();
      const call: Call<any, any, any> = {
        params,
        query,
        body,
        expand,
        caller,
        services,
        ctx,
        db: services.db,
        now,
        actor() {
          if (!caller) throw new Error('route has no authenticated caller');
          return { restaurantId: caller.restaurantId, livemode: caller.livemode, now };
        },
        approve: noApproval,
      };
      if (spec.approval) call.approve = await approvalOf(call, (body as { manager_pin?: string } | undefined)?.manager_pin);
      const status = spec.status ?? 200;
      if (idempotency) {
        // a person's key across their sessions (a retry after signing in again replays); a key's its own
        const who = caller?.staff ? `usr_${caller.staff.id}` : caller?.keyId;
        const scope = caller
          ? { restaurantId: caller.restaurantId, namespace: `${caller.livemode ? 'live' : 'test'}:${who}` }
          : ((await spec.idempotencyScope?.(call)) ?? null);
        const reply = await withIdempotency(
          ctx,
          services,
          scope,
          status,
          (trx: Transaction<DB>) => spec.handler({ ...call, db: trx }),
          spec.refuseReplay as ((answer: unknown) => ApiError) | undefined,
          idempotency,
        );
        ctx.status = reply.status;
        // a replayed refusal (refuseReplay) names this request, like any other error
        ctx.body = reply.status >= 400 ? answeredErrorBody(ctx, reply.body as any) : reply.body;
        return;
      }
      const result = await spec.handler(call);
      if (result === ANSWERED) return;
      ctx.status = status;
      ctx.body = result as any;
    });
  }
}

/** A route param that must be a prefixed id; anything else is a 404 like an unknown id. */
export const idParam = (what: string) => z.object({ id: z.string().min(1).max(64) }).describe(what);

export const guard = (cond: unknown, err: () => ApiError): void => {
  if (!cond) throw err();
};
