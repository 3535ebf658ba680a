import type { Context } from 'koa';

/** The signed cookie that makes a browser a trusted tablet for staff PINs (httpOnly). */
export const PIN_DEVICE_COOKIE = 'comanda_pin_device';
/**
 * Its page-readable hint: no secret, only "this browser holds the cookie", so the PIN pad asks
 * the hub who may sign in only when it can answer (a fresh tablet's console shows no 401).
 */
export const PIN_TABLET_HINT = 'comanda_pin_tablet';

/** Sets the hint to follow the cookie (set with it, or gone when it is). */
export function setPinTabletHint(ctx: Context, on: boolean, opts: { secure: boolean; maxAge?: number }): void {
  if (on) ctx.cookies.set(PIN_TABLET_HINT, '1', { path: '/', httpOnly: false, sameSite: 'strict', secure: opts.secure, maxAge: opts.maxAge, overwrite: true });
  else ctx.cookies.set(PIN_TABLET_HINT, '', { path: '/', httpOnly: false, sameSite: 'strict', secure: opts.secure, maxAge: 0, overwrite: true });
}
