import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestOf } from '../../server/http/guest-services.ts';
import type { ComandaServer } from '../../server/server.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, startSecondServer, type ApiClient, type TestHub } from '../helpers/server.ts';
import { solvedCaptcha } from './helpers.ts';

const form = (captchaToken: string) => ({ name: 'Ana', email: 'ana@example.org', restaurantName: 'Casa Ana', message: 'Hola', captchaToken, lang: 'es' });

describe.each(DIALECTS)('captcha key shared by the processes of one database on %s', (dialect) => {
  let hub: TestHub;
  let other: ComandaServer;
  let otherApi: ApiClient;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-captcha-'));

  beforeAll(async () => {
    hub = await startHub(dialect, { dataDir: dir });
    guestOf(hub.server.services).captchaMaxNumber = 2000;
    ({ server: other, api: otherApi } = await startSecondServer(hub, dir));
  });
  afterAll(async () => {
    await other?.close();
    await hub?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a challenge issued by one process is redeemed at the other, once', async () => {
    const token = await solvedCaptcha(hub);
    const r = await otherApi.post('/public/contact', form(token), { key: null });
    expect(r.body).toMatchObject({ object: 'contact_request' });
    expect(r.status).toBe(202);
    const again = await hub.api.post('/public/contact', form(token), { key: null });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain('already used');
  });

  it('both hold the same key, made once and kept in the database', async () => {
    const [a, b] = await Promise.all([guestOf(hub.server.services).captchaKey(), guestOf(other.services).captchaKey()]);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    const rows = await hub.server.services.db.selectFrom('service_secrets').selectAll().execute();
    expect(rows.map((r) => r.name)).toEqual(['captcha_hmac']);
  });
});
