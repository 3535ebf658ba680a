import { z } from 'zod';
import { PIN_PATTERN, setPin } from '../../domain/staff/pins.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { holdsAll, scopesOfRole } from '../../auth/roles.ts';
import { credentialsRevoked } from '../../auth/revocations.ts';
import { updateRecord } from '../../db/records.ts';
import { revokeUserSessions } from '../../domain/staff/sessions.ts';
import { createStaff, findStaff, updateStaff } from '../../domain/staff/staff.ts';
import { ApiError, notFound, mustExist } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { Executor } from '../../db/records.ts';
import type { Services } from '../../services.ts';
import { SetPassword } from '../auth/schema.ts';
import { registerExpandable } from '../../http/expand.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { presentStaff, StaffUserSchema } from '../../presenters/staff.ts';
import { CreateStaff, ListStaff, UpdateStaff } from './schema.ts';
import { listOf } from '../../model/schemas.ts';

registerExpandable('staff_user', {
  personal: true,
  load: async ({ db, restaurantId }, ids) => {
    const rows = await db.selectFrom('users').selectAll().where('restaurant_id', '=', restaurantId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, presentStaff(r)]));
  },
});

const tag = 'Staff';

/**
 * Nobody hands out more than they hold: a role may be given, and a person with a role
 * changed (or their password set, which is taking their sign-in over), only by a caller
 * holding every scope of that role. A manager cannot make an owner or reset one.
 */
function assertMayManage(caller: Caller, ...roles: (string | undefined)[]) {
  for (const role of roles) {
    if (role && !holdsAll(caller.scopes, scopesOfRole(role))) {
      throw new ApiError('insufficient_scope', `Only a caller with every right of the role '${role}' may give it or change a person who has it.`);
    }
  }
}

/** Ends a person's sessions (but `except`) and closes the live sockets they held. */
async function signOutEverywhere(c: { services: Services; now: number; actor(): { restaurantId: string } }, userId: string, except?: string) {
  if ((await revokeUserSessions(c.services.db, userId, c.now, except)) > 0) credentialsRevoked(c.services, c.actor().restaurantId);
}

async function targetRole(db: Executor, restaurantId: string, id: string): Promise<string> {
  const row = mustExist(await findStaff(db, restaurantId, id), 'staff user', id);
  return row.role;
}

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/staff',
    response: listOf(StaffUserSchema),
    summary: 'List staff users, newest first',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:read',
    query: ListStaff,
    handler: async (c) => {
      let qb = c.db.selectFrom('users').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
      if (c.query.is_active !== undefined) qb = qb.where('is_active', '=', c.query.is_active ? 1 : 0);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('users'), url: '/v1/staff' });
      return mapPage(page, (rows) => rows.map(presentStaff));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/staff/:id',
    response: StaffUserSchema,
    summary: 'Retrieve a staff user',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:read',
    params: idParam('usr_ id'),
    handler: async (c) => {
      const row = mustExist(await findStaff(c.db, c.actor().restaurantId, c.params.id), 'staff user', c.params.id);
      return presentStaff(row);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/staff',
    response: StaffUserSchema,
    summary: 'Create a staff user (email unique per restaurant)',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:write',
    body: CreateStaff,
    idempotent: true,
    status: 201,
    handler: async (c) => {
      assertMayManage(c.caller!, c.body.role);
      return presentStaff(await createStaff(c.db, c.actor(), c.body));
    },
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/staff/:id',
    response: StaffUserSchema,
    summary: 'Update a staff user; only the fields sent change',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:write',
    params: idParam('usr_ id'),
    body: UpdateStaff,
    handler: async (c) => {
      const before = await targetRole(c.db, c.actor().restaurantId, c.params.id);
      assertMayManage(c.caller!, before, c.body.role);
      const row = await c.services.tx.run((trx) => updateStaff(trx, c.actor(), c.params.id, c.body));
      // Deactivated, or moved to a role that can do less (or nothing): every session ends,
      // so moving them back later revives none of them. A promotion keeps them.
      const demoted = c.body.role !== undefined && !holdsAll(new Set(scopesOfRole(row.role)), scopesOfRole(before));
      if (c.body.is_active === false || demoted) await signOutEverywhere(c, row.id);
      return presentStaff(row);
    },
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/staff/:id',
    response: StaffUserSchema,
    summary: 'Deactivate a staff user (kept for past orders and shifts); returns it with is_active false',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:write',
    params: idParam('usr_ id'),
    handler: async (c) => {
      assertMayManage(c.caller!, await targetRole(c.db, c.actor().restaurantId, c.params.id));
      const row = await c.services.tx.run((trx) => updateStaff(trx, c.actor(), c.params.id, { is_active: false }));
      await signOutEverywhere(c, row.id);
      return presentStaff(row);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/staff/:id/password',
    response: StaffUserSchema,
    summary: 'Set a staff user’s back-office password; signs them out everywhere else',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:write',
    params: idParam('usr_ id'),
    body: SetPassword,
    handler: async (c) => {
      const actor = c.actor();
      assertMayManage(c.caller!, await targetRole(c.db, actor.restaurantId, c.params.id));
      const hash = await hashPassword(c.body.password);
      const row = await c.services.tx.run((trx) =>
        updateRecord(trx, 'users', { id: c.params.id, restaurant_id: actor.restaurantId }, { password_hash: hash, updated: Math.floor(c.now / 1000) }),
      );
      if (!row) throw notFound('staff user', c.params.id);
      // your own other devices too, but not the one you are changing it from
      await signOutEverywhere(c, row.id, c.caller!.staff?.sessionId);
      return { ...presentStaff(row), has_password: true };
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/staff/:id/pin',
    response: StaffUserSchema,
    summary: 'Set (or, with null, clear) a staff user’s 4–6 digit PIN for quick sign-in on trusted tablets; stored hashed',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:write',
    params: idParam('usr_ id'),
    body: z.object({ pin: z.string().regex(PIN_PATTERN, 'must be 4 to 6 digits').nullable() }),
    handler: async (c) => {
      const actor = c.actor();
      assertMayManage(c.caller!, await targetRole(c.db, actor.restaurantId, c.params.id));
      const row = mustExist(await c.services.tx.run((trx) => setPin(trx, actor, c.params.id, c.body.pin)), 'staff user', c.params.id);
      return presentStaff(row);
    },
  }),
];
