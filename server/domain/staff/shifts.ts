import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { locksRows } from '../../db/row-locks.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import { findStaff } from './staff.ts';

export async function findShift(db: Executor, restaurantId: string, id: string) {
  return db.selectFrom('shifts').selectAll().where('restaurant_id', '=', restaurantId).where('id', '=', id).executeTakeFirst();
}

/** Opens a shift now. One open shift per user; an inactive user cannot clock in. */
export async function clockIn(trx: Executor, actor: Actor, userId: string) {
  const user = await findStaff(trx, actor.restaurantId, userId);
  if (!user) throw notFound('staff user', userId, 'user');
  if (!user.is_active) throw new ApiError('state_conflict', `Staff user '${userId}' is inactive.`, 'user');
  // one clock-in per user at a time: on PostgreSQL two at once would both find no open shift
  if (locksRows(trx)) await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const open = await trx
    .selectFrom('shifts')
    .select('id')
    .where('restaurant_id', '=', actor.restaurantId)
    .where('user_id', '=', userId)
    .where('clock_out', 'is', null)
    .executeTakeFirst();
  if (open) throw new ApiError('state_conflict', `Staff user '${userId}' is already clocked in (shift ${open.id}).`, 'user');
  const now = seconds(actor);
  return insertRecord(trx, 'shifts', {
    id: newId(PREFIXES.shift, actor.now),
    restaurant_id: actor.restaurantId,
    user_id: userId,
    clock_in: now,
    clock_out: null,
    created: now,
    updated: now,
  });
}

export async function clockOut(trx: Executor, actor: Actor, shiftId: string) {
  const shift = await findShift(trx, actor.restaurantId, shiftId);
  if (!shift) throw notFound('shift', shiftId);
  if (shift.clock_out !== null) throw new ApiError('state_conflict', `Shift '${shiftId}' is already clocked out.`, 'id');
  const now = seconds(actor);
  return (await updateRecord(trx, 'shifts', { id: shiftId, restaurant_id: actor.restaurantId }, { clock_out: Math.max(now, Number(shift.clock_in)), updated: now }))!;
}
