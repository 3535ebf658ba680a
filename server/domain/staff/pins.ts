import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { accessRoleOf } from '../../auth/roles.ts';
import type { Executor } from '../../db/records.ts';
import { updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';

/**
 * Staff PINs: 4–6 digits for a quick sign-in on a shared tablet during service, and for a
 * manager approving a void or a discount on someone else's tablet. Stored hashed like a
 * password; the routes throttle failures like sign-ins (server/auth/sign-in-throttle.ts), per
 * person too. A PIN alone opens nothing: the tablet must be a trusted service tablet
 * (service-tablets.ts), and what it opens is service work only (auth/roles.ts scopesOfSession).
 * A manager's PIN typed to approve a void opens no session at all.
 */
export const PIN_PATTERN = /^\d{4,6}$/;

export async function setPin(trx: Executor, actor: Actor, userId: string, pin: string | null) {
  const user = await trx.selectFrom('users').select(['id', 'role']).where('restaurant_id', '=', actor.restaurantId).where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound('staff user', userId);
  if (pin !== null && !accessRoleOf(user.role)) throw new ApiError('parameter_invalid', `A '${user.role}' has no sign-in, so no PIN either.`, 'pin');
  return updateRecord(trx, 'users', { id: userId, restaurant_id: actor.restaurantId }, { pin_hash: pin === null ? null : await hashPassword(pin), updated: seconds(actor) });
}

/** The staff member whose PIN this is, or null (the caller counts the failure). */
export async function checkPin(db: Executor, restaurantId: string, userId: string, pin: string) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'restaurant_id', 'role', 'pin_hash', 'is_active'])
    .where('restaurant_id', '=', restaurantId)
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user?.pin_hash || user.is_active !== 1 || !accessRoleOf(user.role)) return null;
  return (await verifyPassword(pin, user.pin_hash)) ? user : null;
}

/** A manager or owner whose PIN this is: the approver of a void or a discount. */
export async function managerByPin(db: Executor, restaurantId: string, pin: string) {
  const managers = await db
    .selectFrom('users')
    .select(['id', 'role', 'pin_hash'])
    .where('restaurant_id', '=', restaurantId)
    .where('is_active', '=', 1)
    .where('pin_hash', 'is not', null)
    .where('role', 'in', ['owner', 'manager'])
    .execute();
  for (const m of managers) if (await verifyPassword(pin, m.pin_hash!)) return m;
  return null;
}

/** Whether this role may void and discount without a manager's approval. */
export const approvesOwnActions = (role: string) => ['owner', 'manager'].includes(accessRoleOf(role) ?? '');
