import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Next } from 'koa';
import { SESSION_COOKIE } from './session.ts';
import { PIN_DEVICE_COOKIE, PIN_TABLET_HINT, setPinTabletHint } from './pin-tablet.ts';
import { OPEN_STATUSES } from '../model/orders.ts';

/** Where `npm run build:web` (app/web/build.ts) writes the back office. */
export const WEB_DIST = fileURLToPath(new URL('../../app/web/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};

interface Asset {
  type: string;
  etag: string;
  raw: Buffer;
  gzip: Buffer | null;
  br: Buffer | null;
}

// The page may talk to this server only: no CDN, no font or script from elsewhere (a hub
// must work with the internet down), and nobody may frame it.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

function readAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!/\.(gz|br)$/.test(entry.name)) {
        const raw = fs.readFileSync(full);
        const maybe = (ext: string) => (fs.existsSync(full + ext) ? fs.readFileSync(full + ext) : null);
        const rel = '/' + path.relative(dir, full).split(path.sep).join('/');
        assets.set(rel, {
          type: TYPES[path.extname(entry.name)] ?? 'application/octet-stream',
          etag: `"${createHash('sha1').update(raw).digest('base64url').slice(0, 20)}"`,
          raw,
          gzip: maybe('.gz'),
          br: maybe('.br'),
        });
      }
    }
  };
  walk(dir);
  return assets;
}

/** A table's QR page: `/qr/<token>`. */
const QR_PAGE = /^\/qr\/([A-Za-z0-9]+)$/;

/** The order-entry page a tablet opens: the back office with that page in its first load. */
const SERVICE_PAGE = /^\/app\/service\/?$/;

/**
 * What the order-entry page asks first, fetched while its scripts load when someone is signed
 * in (`app.tsx` and `pages/service.tsx` ask for exactly these: the setup and the session, the floor and its open checks).
 * Without them a cheap tablet waited for its scripts to run before its first request.
 */
const SERVICE_FIRST = ['/v1/auth/setup', '/v1/auth/session', '/v1/tables?limit=100', `/v1/orders?${new URLSearchParams({ limit: '100', status: OPEN_STATUSES.join(',') })}`];

/** The built page of a screen or guest path, else null (the back office's /app/… or not ours). */
function pageFor(p: string): string | null {
  if (SERVICE_PAGE.test(p)) return '/service.html';
  if (/^\/screens(\/[\w-]*)*$/.test(p)) return '/screens.html';
  if (QR_PAGE.test(p) || /^\/r\/[\w-]+\/(waitlist|feedback)$/.test(p) || /^\/waitlist\/[\w.-]+$/.test(p)) return '/guest.html';
  return null;
}

/**
 * Serves the built back office at /app/…: hashed files under /app/assets/ for a year
 * (their names change with their content), every other /app/ path the page itself,
 * revalidated each time so a new version shows on the next load. Brotli or gzip copies made
 * at build time are sent when the browser takes them. `/` leads to /app/.
 */
export function webApp(dir: string = WEB_DIST) {
  let assets: Map<string, Asset> | null = null;
  const load = () => {
    if (!assets && fs.existsSync(path.join(dir, 'index.html'))) assets = readAssets(dir);
    return assets;
  };
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const p = ctx.path;
    if (p === '/' || p === '/app') return ctx.redirect('/app/');
    // the kitchen/expo/floor screens and the guest pages are pages of their own (assets under /app/assets/)
    const page = pageFor(p);
    if (!page && !p.startsWith('/app/')) return next();
    const files = load();
    if (!files) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The back office is not built yet: run `npm run build:web` (npm install and npm start do it).';
      return;
    }
    const rel = page ?? p.slice('/app'.length);
    const service = rel === '/service.html';
    // a build from before the order-entry page had a page of its own: the back office serves it
    let asset = files.get(rel) ?? (service ? files.get('/index.html') : undefined);
    const hashed = rel.startsWith('/assets/');
    if (!asset) {
      if (hashed || /\.[a-z0-9]+$/i.test(rel)) return next();
      asset = files.get('/index.html')!;
    }
    ctx.set('Vary', 'Accept-Encoding');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (asset.type.startsWith('text/html')) {
      const qr = QR_PAGE.exec(p);
      // a phone on a slow line fetches the table's menu while the page's scripts are still coming
      const preload = qr ? [`/public/qr/${qr[1]}`, `/public/qr/${qr[1]}/menu`] : service && ctx.cookies.get(SESSION_COOKIE) ? SERVICE_FIRST : [];
      if (preload.length) ctx.set('Link', preload.map((u) => `<${u}>; rel=preload; as=fetch; crossorigin`).join(', '));
      // the answer differs with the cookie (the preloads): no cache may give one person's to another
      if (service) ctx.set('Cache-Control', 'no-cache, private');
      // the PIN pad's hint follows the tablet's trust (a tablet trusted before the hint existed gets it here)
      const trusted = !!ctx.cookies.get(PIN_DEVICE_COOKIE);
      if (service && trusted !== (ctx.cookies.get(PIN_TABLET_HINT) === '1')) setPinTabletHint(ctx, trusted, { secure: ctx.secure });
      ctx.set('Content-Security-Policy', CSP);
      ctx.set('Referrer-Policy', 'same-origin');
      ctx.set('X-Frame-Options', 'DENY');
    }
    ctx.set('ETag', asset.etag);
    if (ctx.get('if-none-match') === asset.etag) {
      ctx.status = 304;
      return;
    }
    const accepts = ctx.get('accept-encoding');
    let body = asset.raw;
    if (asset.br && /\bbr\b/.test(accepts)) {
      body = asset.br;
      ctx.set('Content-Encoding', 'br');
    } else if (asset.gzip && /\bgzip\b/.test(accepts)) {
      body = asset.gzip;
      ctx.set('Content-Encoding', 'gzip');
    }
    ctx.type = asset.type;
    ctx.status = 200;
    ctx.body = body;
  };
}
