import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * A staff device's choice of home (app/web/src/lib/homes.ts, docs/contributors/two-homes.md)
 * against a scripted network: the hub (this page's origin) answers or refuses, the cloud
 * answers as each test says. The real-process proof is test/sync/two-homes.browser.test.ts;
 * these are the races it cannot aim at: a probe answered just as the device moved, a second
 * outage, a cloud that fails the pass's first trade.
 */

// loaded by address so the type-check does not take the page's module into the server's
// program (it speaks DOM); the shape this test uses
interface Homes {
  home: { value: 'hub' | 'cloud' };
  startHomes(c: { kind: 'session' } | { kind: 'key'; key: string }): void;
  hubSilent(): void;
  moveToCloud(): Promise<void>;
}
const HOMES = new URL('../../app/web/src/lib/homes.ts', import.meta.url).href;
const CLOUD = 'http://cloud.example';

interface Net {
  hubUp: boolean;
  hubCaughtUp: boolean;
  /** false: the internet is down (the cloud does not answer); a number: the cloud's refusal */
  cloud: true | false | number;
  /** answers the cloud gives to the pass's trade, in turn (then 200) */
  redeem: number[];
  redeemed: string[];
  passes: number;
}

let net: Net;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function answer(url: string, init?: RequestInit): Promise<Response> {
  if (url.startsWith('/')) {
    if (!net.hubUp) throw new TypeError('Failed to fetch');
    if (url === '/v1/homes') return json(200, { object: 'homes', role: 'hub', cloud_url: CLOUD, hub_caught_up: net.hubCaughtUp });
    if (url === '/v1/auth/cloud_pass') return json(200, { object: 'cloud_pass', pass: `cp1.pass${++net.passes}.mac`, cloud_url: CLOUD, expires: 0 });
  }
  if (url.startsWith(CLOUD) && net.cloud === false) throw new TypeError('Failed to fetch');
  if (url === `${CLOUD}/v1/auth/cloud_pass/redeem`) {
    const pass = (JSON.parse(String(init?.body)) as { pass: string }).pass;
    const status = net.redeem.shift() ?? 200;
    if (status !== 200) return json(status, { error: { code: 'internal_error' } });
    if (net.redeemed.includes(pass)) return json(401, { error: { code: 'not_signed_in' } });
    net.redeemed.push(pass);
    return json(200, { object: 'cloud_session', token: `token-${pass}` });
  }
  if (url === `${CLOUD}/v1/homes` && typeof net.cloud === 'number') return json(net.cloud, { error: { code: 'not_signed_in' } });
  if (url === `${CLOUD}/v1/homes`) return json(200, { object: 'homes', role: 'cloud', cloud_url: null, hub_caught_up: null });
  throw new Error(`unexpected request ${url}`);
}

describe('a staff device between its two homes', () => {
  let homes: Homes;

  beforeEach(async () => {
    vi.useFakeTimers();
    net = { hubUp: true, hubCaughtUp: true, cloud: true, redeem: [], redeemed: [], passes: 0 };
    const store = new Map<string, string>();
    vi.stubGlobal('window', globalThis);
    vi.stubGlobal('sessionStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) });
    vi.stubGlobal('document', { cookie: 'comanda_csrf=t' });
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => answer(url, init));
    vi.resetModules();
    homes = (await import(/* @vite-ignore */ HOMES)) as Homes;
    homes.startHomes({ kind: 'session' });
    // it learned the cloud and holds a pass
    await vi.advanceTimersByTimeAsync(10);
    expect(net.passes).toBe(1);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** The hub stops: the device notices (its live feed closes) and keeps probing. */
  const hubDies = async () => {
    net.hubUp = false;
    homes.hubSilent();
    await vi.advanceTimersByTimeAsync(3_500);
  };

  it('moves to the cloud after the hub has been silent a few seconds, back once the hub has caught up, and again at the next outage', async () => {
    await hubDies();
    expect(homes.home.value).toBe('cloud');
    // a probe of the hub that was on its way as the device moved asks to move once more
    await homes.moveToCloud();

    // the hub answers, not caught up yet: the device stays on the cloud
    net.hubUp = true;
    net.hubCaughtUp = false;
    await vi.advanceTimersByTimeAsync(4_100);
    expect(homes.home.value).toBe('cloud');
    net.hubCaughtUp = true;
    await vi.advanceTimersByTimeAsync(2_100);
    expect(homes.home.value).toBe('hub');

    // the hub stops again: the device moves again (the late probe left nothing behind)
    await hubDies();
    expect(homes.home.value).toBe('cloud');
  });

  it('goes back to a hub that answers but cannot catch up while the cloud does not answer either (the internet down as the hub PC restarted)', async () => {
    await hubDies();
    expect(homes.home.value).toBe('cloud');
    // the internet goes: the device, on the cloud, is offline
    net.cloud = false;
    await vi.advanceTimersByTimeAsync(4_100);
    expect(homes.home.value).toBe('cloud');
    // the hub PC restarts; its sync cannot reach the cloud, so it never says it has caught up
    net.hubUp = true;
    net.hubCaughtUp = false;
    await vi.advanceTimersByTimeAsync(2_100);
    expect(homes.home.value).toBe('hub');
  });

  it('goes back to a hub not caught up when the cloud no longer takes the device (its session or key refused there)', async () => {
    await hubDies();
    net.hubUp = true;
    net.hubCaughtUp = false;
    await vi.advanceTimersByTimeAsync(2_100);
    expect(homes.home.value).toBe('cloud');
    net.cloud = 401;
    await vi.advanceTimersByTimeAsync(2_100);
    expect(homes.home.value).toBe('hub');
  });

  it('keeps its pass when the cloud fails to trade it (a 5xx), and moves on the next try', async () => {
    net.redeem = [503];
    await hubDies();
    expect(homes.home.value).toBe('hub');
    await vi.advanceTimersByTimeAsync(1_100);
    expect(homes.home.value).toBe('cloud');
    expect(net.redeemed).toEqual(['cp1.pass1.mac']);
  });

  it('stays on the hub when the hub answers again within a few seconds', async () => {
    net.hubUp = false;
    homes.hubSilent();
    await vi.advanceTimersByTimeAsync(2_900);
    net.hubUp = true;
    await vi.advanceTimersByTimeAsync(1_100);
    expect(homes.home.value).toBe('hub');
  });
});
