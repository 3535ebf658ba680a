import { approvesOwnActions, managerByPin } from '../../domain/staff/pins.ts';
import { ApiError } from '../../errors.ts';
import type { Call } from '../../http/route.ts';
import { clientIp, signInThrottle } from '../../http/session.ts';

/**
 * Who approves taking money off a check (a void, a discount, a cancel with lines at the
 * stations, a tip above the venue's bound or its correction): a manager's or owner's own
 * session approves itself; a server's needs a manager's PIN in `manager_pin` (the manager is
 * recorded as the approver); a secret key stands for the owner who made it (null).
 */
export async function approver(c: Call<any, any, any>, pin: string | undefined): Promise<string | null> {
  const staff = c.caller?.staff;
  if (!staff) return null;
  if (approvesOwnActions(staff.role)) return staff.id;
  if (!pin) throw new ApiError('approval_required', 'A manager must approve this: enter a manager’s PIN.', 'manager_pin');
  const ip = clientIp(c.ctx, c.services);
  const account = `approve:${c.caller!.restaurantId}`;
  const throttle = signInThrottle(c.services);
  await throttle.check(account, ip, c.services.clock.now());
  const manager = await managerByPin(c.db, c.caller!.restaurantId, pin);
  if (!manager) {
    await throttle.fail(account, ip, c.services.clock.now());
    throw new ApiError('approval_required', 'That is not a manager’s PIN.', 'manager_pin');
  }
  return manager.id;
}
