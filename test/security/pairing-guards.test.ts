import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/** Another code with the same locator (first digits): a try aimed at that code. */
const sibling = (code: string, locator: number, n: number) => code.slice(0, locator) + String((Number(code.slice(locator)) + n) % 10 ** (code.length - locator)).padStart(code.length - locator, '0');

describe.each(DIALECTS)('pairing codes resist guessing (%s)', (dialect) => {
  let hub: TestHub;
  const lines: any[] = [];
  beforeAll(async () => {
    hub = await startHub(dialect);
    hub.server.services.logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  });
  afterAll(() => hub?.close());
  const guest = () => hub.api.withKey(null);

  it('a code dies after five tries aimed at it, and every try is logged', async () => {
    const made = (await hub.api.post('/v1/devices/pairing_codes', { name: 'Grill', station: 'kitchen' })).body;
    expect(made.code).toMatch(/^\d{6}$/);
    for (let i = 1; i <= 5; i++) expectError(await guest().post('/public/devices/pair', { code: sibling(made.code, 2, i) }), 404, 'resource_missing');
    // the right code now pairs nothing: it took its five tries
    expectError(await guest().post('/public/devices/pair', { code: made.code }), 404, 'resource_missing');
    const refused = lines.filter((l) => l.msg === 'device pairing refused');
    expect(refused.length).toBe(6);
    expect(refused[0]).toMatchObject({ locator: made.code.slice(0, 2), code_known: true, ip: '127.0.0.1' });
    // a fresh code works the first time, and says so in the log
    const next = (await hub.api.post('/v1/devices/pairing_codes', { name: 'Pass' })).body;
    expect((await guest().post('/public/devices/pair', { code: next.code })).status).toBe(201);
    expect(lines.find((l) => l.msg === 'device paired')).toMatchObject({ name: 'Pass', restaurant: hub.restaurant.id });
  });

  it('wrong codes pause pairing for their address and for the restaurant they aim at, never for every restaurant', async () => {
    const other = await startHub(dialect, { config: { trustedProxies: ['127.0.0.1'] } });
    try {
      const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
      const anon = other.api.withKey(null);
      const second = await other.addRestaurant('second-venue');
      const mine = (await other.api.post('/v1/devices/pairing_codes', { name: 'Grill' })).body;
      const theirs = (await second.api.post('/v1/devices/pairing_codes', { name: 'Bar' })).body;
      const locators = new Set([mine.code.slice(0, 2), theirs.code.slice(0, 2)]);
      // 30 wrong codes aimed at no open code, from one address: that address waits…
      let tries = 0;
      for (let n = 0; tries < 30; n++) {
        const code = String(n).padStart(6, '0');
        if (locators.has(code.slice(0, 2))) continue;
        expectError(await anon.post('/public/devices/pair', { code }, from('203.0.113.5')), 404, 'resource_missing');
        tries++;
      }
      const paused = await anon.post('/public/devices/pair', { code: theirs.code }, from('203.0.113.5'));
      expectError(paused, 429, 'rate_limited');
      expect(Number(paused.headers.get('retry-after'))).toBeGreaterThan(0);
      // …and nobody else: the other restaurant's tablet pairs from its own address
      expect((await anon.post('/public/devices/pair', { code: theirs.code }, from('198.51.100.7'))).status).toBe(201);

      // wrong codes from 30 addresses aimed at one restaurant's codes (each dies after five) pause that restaurant's pairing only
      let n = 0;
      for (let code = 0; code < 6; code++) {
        const made = (await other.api.post('/v1/devices/pairing_codes', { name: `Decoy ${code}` })).body;
        for (let i = 1; i <= 5; i++) expectError(await anon.post('/public/devices/pair', { code: sibling(made.code, 2, i) }, from(`192.0.2.${++n}`)), 404, 'resource_missing');
      }
      expectError(await anon.post('/public/devices/pair', { code: mine.code }, from('192.0.2.200')), 429, 'rate_limited');
      const next = (await second.api.post('/v1/devices/pairing_codes', { name: 'Pass' })).body;
      expect((await anon.post('/public/devices/pair', { code: next.code }, from('192.0.2.201'))).status).toBe(201);
      // the paused code was not touched: once the window passes it pairs
      other.clock.advance(10 * 60 * 1000 + 1000);
      const late = (await other.api.post('/v1/devices/pairing_codes', { name: 'Late' })).body;
      expect((await anon.post('/public/devices/pair', { code: late.code }, from('192.0.2.202'))).status).toBe(201);
    } finally {
      await other.close();
    }
  });

  it('the cloud makes twelve-digit codes', async () => {
    const cloud = await startHub(dialect, { config: { role: 'cloud' } });
    try {
      const made = (await cloud.api.post('/v1/devices/pairing_codes', { name: 'Grill' })).body;
      expect(made.code).toMatch(/^\d{12}$/);
      // a six-digit guess is no code here
      expectError(await cloud.api.withKey(null).post('/public/devices/pair', { code: made.code.slice(0, 6) }), 404, 'resource_missing');
      expect((await cloud.api.withKey(null).post('/public/devices/pair', { code: made.code })).status).toBe(201);
    } finally {
      await cloud.close();
    }
  });
});
