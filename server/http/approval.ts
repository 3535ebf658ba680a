import { approvesOwnActions, managerByPin } from '../domain/staff/pins.ts';
import { ApiError } from '../errors.ts';
import type { Context } from 'koa';
import type { Executor } from '../db/records.ts';
import type { Services } from '../services.ts';
import type { Caller } from './authenticate.ts';
import { clientIp, signInThrottle } from './session.ts';

/** What an approval reads of the request. */
interface Asking {
  caller: Caller | null;
  ctx: Context;
  services: Services;
  db: Executor;
}

/**
 * Who approves taking money off a check (a void, a discount, a cancel with lines at the
 * stations, a tip above the venue's bound or its correction): a manager's or owner's own
 * session approves itself; a server's needs a manager's PIN in `manager_pin` (the manager is
 * recorded as the approver); a secret key stands for the owner who made it (null).
 */
export async function approver(c: Asking, pin: string | undefined): Promise<string | null> {
  const staff = c.caller?.staff;
  if (!staff) return null;
  if (approvesOwnActions(staff.role)) return staff.id;
  if (!pin) throw new ApiError('approval_required', 'A manager must approve this: enter a manager’s PIN.', 'manager_pin');
  const ip = clientIp(c.ctx, c.services);
  const account = `approve:${c.caller!.restaurantId}`;
  const throttle = signInThrottle(c.services);
  await throttle.check(account, ip);
  const manager = await managerByPin(c.db, c.caller!.restaurantId, pin);
  if (!manager) {
    await throttle.fail(account, ip);
    throw new ApiError('approval_required', 'That is not a manager’s PIN.', 'manager_pin');
  }
  return manager.id;
}

/**
 * The approval resolved before a command's transaction (a PIN's check counts failures outside
 * it, so a refusal's rollback cannot forget them; on SQLite it would wait on the transaction
 * itself), handed to the command to ask only if what it does needs one: a server who sent no
 * PIN is refused then, not before. Routes that declare `approval` get it as `c.approve`.
 */
export async function approvalOf(c: Asking, pin: string | undefined): Promise<() => Promise<string | null>> {
  const staff = c.caller?.staff;
  if (staff && !approvesOwnActions(staff.role) && !pin) {
    return async () => {
      throw new ApiError('approval_required', 'A manager must approve this: enter a manager’s PIN.', 'manager_pin');
    };
  }
  const by = await approver(c, pin);
  return async () => by;
}
