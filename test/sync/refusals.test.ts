import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialOf, readLink } from '../../sync/hub.ts';
import { createInvite } from '../../sync/cloud/link.ts';
import { linkHub } from '../../sync/link.ts';
import { MAX_BATCH_BYTES, PROTOCOL_VERSION } from '../../sync/protocol.ts';
import { startHub } from '../helpers/server.ts';
import { columnInfoOf } from '../../sync/columns.ts';
import { startPair, type Pair, logEntries } from './helpers.ts';

/** A raw sync request, as a hub (or an attacker) would send it. */
async function send(url: string, path: string, body: unknown, credential?: string, opts: { gzip?: boolean; raw?: Buffer } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (credential) headers.authorization = `Bearer ${credential}`;
  let payload: Buffer = opts.raw ?? Buffer.from(JSON.stringify(body));
  if (opts.gzip) {
    headers['content-encoding'] = 'gzip';
    payload = gzipSync(payload);
  }
  const res = await fetch(`${url}/sync/v1${path}`, { method: 'POST', headers, body: payload });
  return { status: res.status, body: (await res.json()) as any };
}

describe('cloud sync: what the cloud refuses, applying nothing', () => {
  let p: Pair;
  let credential: string;
  let epoch: string;
  const cloudLog = () => logEntries(p.cloud.server.services.db);

  beforeAll(async () => {
    const pair = await startPair();
    p = pair;
    await pair.link();
    const link = (await readLink(p.hub.server.services.db))!;
    credential = credentialOf(p.hub.server.services, link);
    epoch = (await p.hub.server.services.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin;
    // the hub's own client would keep pushing beside these requests; it is not needed here
    await p.hub.server.services.sync!.stop();
  });
  afterAll(() => p.close());

  const change = (over: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
    op_id: `op_forged${Math.random().toString(36).slice(2)}`,
    origin: epoch,
    origin_seq: 100_000,
    table: 'stations',
    row_id: 'stn_forged',
    op: 'insert',
    data: { id: 'stn_forged', restaurant_id: p.hub.restaurant.id, key: 'forged', name: 'Forged', is_active: 1, warn_after_minutes: null, late_after_minutes: null, position: 0, created: 1, updated: 1, ...data },
    fields: null,
    hlc: null,
    ...over,
  });
  const push = (changes: unknown[], extra: Record<string, unknown> = {}, cred = credential) =>
    send(p.cloud.url, '/push', { protocol: PROTOCOL_VERSION, epoch, after: 0, changes, ...extra }, cred);
  const cursorNow = async () => (await send(p.cloud.url, '/hello', { protocol: PROTOCOL_VERSION, epoch }, credential)).body.cursor as number;

  it('a wrong, spent or expired link code is 401', async () => {
    expect((await send(p.cloud.url, '/link', { protocol: PROTOCOL_VERSION, code: 'AAAAA-BBBBB-CCCCC-DDDDD', restaurant_id: 'rst_x', epoch: 'node_x' })).body.error.code).toBe('sync_code_invalid');
    const { code } = await createInvite(p.cloud.server.services.db, p.cloud.clock.now(), null);
    const other = await startHub('sqlite', { slug: 'second-venue' });
    try {
      expect((await linkHub(other.server.services, p.cloud.url, code)).linked).toBe(true);
      const again = await startHub('sqlite', { slug: 'third-venue' });
      try {
        await expect(linkHub(again.server.services, p.cloud.url, code)).rejects.toMatchObject({ status: 401, code: 'sync_code_invalid' });
        const late = await createInvite(p.cloud.server.services.db, p.cloud.clock.now() - 25 * 3600 * 1000, null);
        await expect(linkHub(again.server.services, p.cloud.url, late.code)).rejects.toMatchObject({ status: 401, code: 'sync_code_invalid' });
        expect(await readLink(again.server.services.db)).toBeUndefined();
      } finally {
        await again.close();
      }
    } finally {
      await other.close();
    }
  });

  it('linking a restaurant the cloud already has with a new-restaurant code is 409', async () => {
    const { code } = await createInvite(p.cloud.server.services.db, p.cloud.clock.now(), null);
    const res = await send(p.cloud.url, '/link', { protocol: PROTOCOL_VERSION, code, restaurant_id: p.hub.restaurant.id, epoch: 'node_other' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('sync_restaurant_exists');
  });

  it('a change whose row is not an object of the table’s columns is 400 and applies nothing', async () => {
    const before = await cloudLog();
    const at = await cursorNow();
    for (const data of [null, ['stn_forged'], 'stn_forged', 7]) {
      const res = await push([{ ...change({ origin_seq: at + 1 }), data }], { after: at });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
    }
    // a key JSON makes an own property, never the object's prototype: an unknown column
    const sneaky = JSON.parse(JSON.stringify(change({ origin_seq: at + 1 })).replace('"key":"forged"', '"key":"forged","__proto__":{"is_active":0}'));
    const res = await push([sneaky], { after: at });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('sync_batch_invalid');
    expect(await cloudLog()).toBe(before);
  });

  it('a wrong credential is 401, also when sent in the URL', async () => {
    expect((await push([change()], {}, 'shc_wrong')).status).toBe(401);
    const r = await fetch(`${p.cloud.url}/sync/v1/push?credential=${credential}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(401);
  });

  it('a batch holding a row of another restaurant is 403, applies nothing, and shows in the cloud’s status', async () => {
    const before = await cloudLog();
    const at = await cursorNow();
    const mine = change({ origin_seq: at + 1 });
    const theirs = change({ origin_seq: at + 2, row_id: 'stn_theirs' }, { id: 'stn_theirs', restaurant_id: 'rst_someone_else' });
    const res = await push([mine, theirs], { after: at });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error.code).toBe('sync_restaurant_mismatch');
    expect(await cloudLog()).toBe(before);
    expect(await p.cloud.server.services.db.selectFrom('stations').select('id').where('id', '=', 'stn_forged').executeTakeFirst()).toBeUndefined();
    const status = await p.cloudApi.get('/v1/sync/status');
    expect(status.body.last_error).toContain('sync_restaurant_mismatch');
  });

  it('a second restaurant’s hub pushing rows of the first is refused (403): a credential reaches its own restaurant only', async () => {
    const { code } = await createInvite(p.cloud.server.services.db, p.cloud.clock.now(), null);
    const intruder = await startHub('sqlite', { slug: 'intruder-venue' });
    try {
      await linkHub(intruder.server.services, p.cloud.url, code);
      await intruder.server.services.sync!.stop();
      const link = (await readLink(intruder.server.services.db))!;
      const theirEpoch = (await intruder.server.services.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin;
      const hello = await send(p.cloud.url, '/hello', { protocol: PROTOCOL_VERSION, epoch: theirEpoch }, credentialOf(intruder.server.services, link));
      const before = await cloudLog();
      const res = await send(
        p.cloud.url,
        '/push',
        { protocol: PROTOCOL_VERSION, epoch: theirEpoch, after: hello.body.cursor, changes: [change({ origin: theirEpoch, origin_seq: hello.body.cursor + 1 }, { name: 'Taken over' })] },
        credentialOf(intruder.server.services, link),
      );
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('sync_restaurant_mismatch');
      expect(await cloudLog()).toBe(before);
      // nor does it read the first restaurant's changes: its pulls carry only its own
      const pulled = await send(p.cloud.url, '/pull', { protocol: PROTOCOL_VERSION, epoch: theirEpoch, after: 0 }, credentialOf(intruder.server.services, link));
      expect(pulled.status).toBe(200);
      expect(pulled.body.changes.every((c: any) => c.data.restaurant_id !== p.hub.restaurant.id && c.data.id !== p.hub.restaurant.id)).toBe(true);
    } finally {
      await intruder.close();
    }
  });

  it('an unknown table, an unknown column, a malformed change or a batch out of the hub’s order is 400', async () => {
    const before = await cloudLog();
    const at = await cursorNow();
    for (const bad of [
      [change({ origin_seq: at + 1, table: 'sync_hubs' })],
      [change({ origin_seq: at + 1 }, { is_admin: 1 })],
      [change({ origin_seq: at + 1, op: 'upsert' })],
      [change({ origin_seq: at + 1, hlc: 'yesterday' })],
      [change({ origin_seq: at + 2 }), change({ origin_seq: at + 1, row_id: 'stn_b' }, { id: 'stn_b' })],
      [change({ origin_seq: at + 1, origin: 'node_not_the_hub' })],
    ]) {
      const res = await push(bad, { after: at });
      expect(res.status, JSON.stringify(bad[0])).toBe(400);
      expect(res.body.error.type).toBe('invalid_request_error');
    }
    expect((await send(p.cloud.url, '/push', null, credential, { raw: Buffer.from('{not json') })).status).toBe(400);
    expect((await send(p.cloud.url, '/push', null, credential, { raw: Buffer.from('garbage'), gzip: false })).status).toBe(400);
    expect(await cloudLog()).toBe(before);
  });

  /** A whole row of `table` for a forged change: every column filled as its type takes it, then `over`. */
  const rowOf = async (table: string, over: Record<string, unknown>) => {
    const cols = await columnInfoOf(p.cloud.server.services.db, table);
    const row: Record<string, unknown> = {};
    for (const [c, info] of cols) row[c] = info.nullable ? null : info.kind === 'number' ? 1 : 'x';
    return { ...row, restaurant_id: p.hub.restaurant.id, ...over };
  };

  it('a null in a required column, an object for text or text for a number is 400 sync_batch_invalid naming the change, and the next batch still applies', async () => {
    const before = await cloudLog();
    const at = await cursorNow();
    for (const data of [{ name: null }, { key: null }, { name: { text: 'Forged' } }, { name: ['Forged'] }, { position: 'first' }, { is_active: true }]) {
      const bad = change({ origin_seq: at + 1 }, data);
      const res = await push([bad], { after: at });
      expect(res.status, JSON.stringify(data)).toBe(400);
      expect(res.body.error.code).toBe('sync_batch_invalid');
      expect(res.body.error.message).toContain(bad.op_id);
      expect(res.body.error.message).toContain(Object.keys(data)[0]);
    }
    expect(await cloudLog()).toBe(before);
    const good = await push([change({ origin_seq: at + 1, row_id: 'stn_fine' }, { id: 'stn_fine', key: 'fine' })], { after: at });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(await p.cloud.server.services.db.selectFrom('stations').select('name').where('id', '=', 'stn_fine').executeTakeFirst()).toEqual({ name: 'Forged' });
  });

  it('a column naming another restaurant’s row is 403 whatever it is called (refunded_by, counted_by, resolved_by, row_ids)', async () => {
    const otherUser = (await p.cloud.server.services.db.selectFrom('users').select('id').where('restaurant_id', '=', p.cloud.restaurant.id).executeTakeFirstOrThrow()).id;
    await p.cloud.server.services.db.insertInto('tables').values((await rowOf('tables', { id: 'tbl_01ARZ3NDEKTSV4RRFFQ69G5FAV', restaurant_id: p.cloud.restaurant.id, number: 4242, status: 'available' })) as any).execute();
    const before = await cloudLog();
    const at = await cursorNow();
    const cases: [string, string, Record<string, unknown>][] = [
      ['payment_refunds', 're_forged', { refunded_by: otherUser }],
      ['cash_counts', 'cc_forged', { counted_by: otherUser }],
      ['sync_resolutions', 'sres_forged', { resolved_by: otherUser }],
      ['sync_resolutions', 'sres_forged', { row_ids: JSON.stringify(['tbl_01ARZ3NDEKTSV4RRFFQ69G5FAV']) }],
    ];
    for (const [table, id, over] of cases) {
      const data = await rowOf(table, { id, ...over });
      const forged = { ...change({ origin_seq: at + 1, table, row_id: id }), data };
      const refused = await push([forged], { after: at });
      expect(refused.status, `${table} ${JSON.stringify(over)}: ${JSON.stringify(refused.body)}`).toBe(403);
      expect(refused.body.error.code).toBe('sync_restaurant_mismatch');
    }
    expect(await cloudLog()).toBe(before);
  });

  it('an oversized batch is 413 before it is read whole, compressed or not', async () => {
    const before = await cloudLog();
    const big = Buffer.alloc(MAX_BATCH_BYTES + 10, 'a');
    expect((await send(p.cloud.url, '/push', null, credential, { raw: big })).status).toBe(413);
    // a small gzip body that inflates past the bound (a zip bomb) is refused too
    const bomb = JSON.stringify({ protocol: PROTOCOL_VERSION, epoch, after: 0, changes: [], pad: 'x'.repeat(MAX_BATCH_BYTES + 10) });
    expect((await send(p.cloud.url, '/push', null, credential, { raw: Buffer.from(bomb), gzip: true })).status).toBe(413);
    expect(await cloudLog()).toBe(before);
  });

  it('another protocol version is refused with a clear message before anything is read', async () => {
    const res = await send(p.cloud.url, '/hello', { protocol: PROTOCOL_VERSION + 1, epoch }, credential);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('sync_protocol_mismatch');
    expect(res.body.error.message).toMatch(/protocol/);
  });
});
