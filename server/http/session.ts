import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { failureLogFor } from '../auth/failure-log.ts';
import { SignInThrottle } from '../auth/sign-in-throttle.ts';
import { resolveSession, type SessionLifetime } from '../domain/staff/sessions.ts';
import type { StaffSession } from '../auth/staff-session.ts';
import { callerIp, clientKey } from './client-ip.ts';
import { keyOf } from './api-key-header.ts';
import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';
import { isLoopbackHost, requireKnownHost } from './hosts.ts';

export const SESSION_COOKIE = 'comanda_session';
/** Readable by the page, which echoes it in X-CSRF-Token; a page of another site can read neither. */
export const CSRF_COOKIE = 'comanda_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const lifetimeOf = (services: Services): SessionLifetime => ({
  idleSeconds: services.config.backOffice.sessionIdleSeconds,
  maxSeconds: services.config.backOffice.sessionMaxSeconds,
});

const throttles = new WeakMap<Services, SignInThrottle>();
export function signInThrottle(services: Services): SignInThrottle {
  let t = throttles.get(services);
  if (!t) {
    const c = services.config.backOffice;
    throttles.set(services, (t = new SignInThrottle(failureLogFor(services), c.signInFailuresPerAccount, c.signInFailuresPerIp, c.signInWindowSeconds * 1000)));
  }
  return t;
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The staff session of this request, if its cookie names a live one (an API key, when sent,
 * wins and the cookie is ignored). A state-changing request made with a session must carry
 * the session's CSRF token in X-CSRF-Token: a form or script on another site can make the
 * browser send the cookie (a same-site page on another port, say) but cannot read the token.
 * Runs before the body is read, so a forged form post is refused as such. A cookie sent under
 * a Host that is none of the server's names is refused (DNS rebinding, http/hosts.ts).
 */
export async function sessionOf(ctx: Context, services: Services): Promise<StaffSession | null> {
  if (ctx.state.session !== undefined) return ctx.state.session;
  ctx.state.session = null;
  if (keyOf(ctx)) return null;
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token || token.length > 100) return null;
  requireKnownHost(ctx, services);
  const session = await resolveSession(services.db, token, services.clock.now(), lifetimeOf(services));
  if (!session) return null;
  if (!SAFE_METHODS.has(ctx.method)) {
    const sent = ctx.get(CSRF_HEADER);
    if (!sent || !sameText(sent, session.csrfToken)) {
      throw new ApiError('csrf_token_invalid', 'This request needs the X-CSRF-Token of your session. Reload the page and try again.');
    }
  }
  ctx.state.session = session;
  return session;
}

/**
 * The browser reached us over https: TLS on this server, or a trusted proxy (the cloud's load
 * balancer) that says so in X-Forwarded-Proto.
 */
export function overHttps(ctx: Context, services: Services): boolean {
  if (ctx.secure) return true;
  const peer = (ctx.req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  return services.config.trustedProxies.map((p) => p.replace(/^::ffff:/, '')).includes(peer) && ctx.get('x-forwarded-proto').split(',')[0].trim() === 'https';
}

/** Sets (or, with null, clears) the two cookies; Secure whenever the browser came over https. */
export function setSessionCookies(ctx: Context, services: Services, value: { token: string; csrfToken: string; maxAgeSeconds: number } | null): void {
  const secure = overHttps(ctx, services);
  // the cookies module refuses Secure on a plain connection unless told the proxy's answer
  if (secure && !ctx.secure) ctx.cookies.secure = true;
  const base = { path: '/', sameSite: 'strict' as const, secure, overwrite: true };
  if (!value) {
    ctx.cookies.set(SESSION_COOKIE, '', { ...base, httpOnly: true, maxAge: 0 });
    ctx.cookies.set(CSRF_COOKIE, '', { ...base, httpOnly: false, maxAge: 0 });
    return;
  }
  const maxAge = value.maxAgeSeconds * 1000;
  ctx.cookies.set(SESSION_COOKIE, value.token, { ...base, httpOnly: true, maxAge });
  ctx.cookies.set(CSRF_COOKIE, value.csrfToken, { ...base, httpOnly: false, maxAge });
}

/**
 * The hub machine itself: a loopback peer that no proxy stands in front of, which names the
 * hub by a loopback name. A loopback peer alone is not enough: a page whose name an attacker
 * made resolve to 127.0.0.1 (DNS rebinding) connects from loopback too, but under its own Host.
 */
export function isLoopback(ctx: Context): boolean {
  const addr = ctx.req.socket.remoteAddress ?? '';
  const loop = addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1';
  return loop && !ctx.get('x-forwarded-for') && !ctx.get('forwarded') && isLoopbackHost(ctx.get('host'));
}

/** The peer's address for the sign-in limit, read as the guest routes read it (trusted proxies only). */
export const clientIp = (ctx: Context, services: Services): string => clientKey(callerIp(ctx, services.config.trustedProxies));
