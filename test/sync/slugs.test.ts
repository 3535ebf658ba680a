import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHlc, nodeOf } from '../../server/db/hlc.ts';
import { credentialOf, readLink } from '../../sync/hub.ts';
import { PROTOCOL_VERSION } from '../../sync/protocol.ts';
import { sendSync as send, startPair } from './helpers.ts';

type Row = Record<string, unknown>;

/**
 * Guest addresses are unique across the cloud (issue 40). Restaurant B lives on the cloud and
 * renamed, keeping its old slug for its printed links; hub A (SQLite) is linked to the cloud
 * (PostgreSQL). A's rename is the cloud's to grant: one B holds, now or before, is refused; so
 * is any rename while the cloud cannot be reached, and a raw push of such a slug.
 */
describe('cloud sync: a slug another restaurant holds is refused to a linked hub', () => {
  let p: Awaited<ReturnType<typeof startPair>>;
  let credential: string;
  let epoch: string;
  let stamp = 0;
  const bOld = 'another-venue';
  const bNow = 'another-venue-moved';

  beforeAll(async () => {
    p = await startPair();
    await p.link();
    await p.hub.server.services.sync!.stop();
    credential = credentialOf(p.hub.server.services, (await readLink(p.hub.server.services.db))!);
    epoch = (await p.hub.server.services.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin;
    // B (the cloud's own restaurant) renames: its old slug stays its former slug
    const renamed = await p.cloud.api.patch('/v1/settings', { slug: bNow });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  }, 60_000);
  afterAll(() => p?.close());

  const pushOwn = async (row: Row) => {
    const at = (await send(p.cloud.url, '/hello', { protocol: PROTOCOL_VERSION, epoch }, credential)).body.cursor as number;
    const base = Math.max(p.cloud.clock.now(), p.hub.clock.now()) + 60_000;
    const wire = [{ op_id: `op_own${randomBytes(8).toString('hex')}`, origin: epoch, origin_seq: at + 1, table: 'restaurants', row_id: String(row.id), op: 'update', data: row, fields: ['slug', 'former_slugs'], hlc: formatHlc(base + ++stamp, 0, nodeOf(epoch)) }];
    return send(p.cloud.url, '/push', { protocol: PROTOCOL_VERSION, epoch, after: at, changes: wire }, credential);
  };
  const cloudRow = (id: string) => (p.cloud.server.services.db as any).selectFrom('restaurants').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('the hub cannot take B’s former slug, nor its current one; a free one is granted by the cloud first', async () => {
    for (const slug of [bOld, bNow]) {
      const r = await p.hub.api.patch('/v1/settings', { slug });
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.error).toMatchObject({ code: 'resource_conflict', param: 'slug' });
    }
    expect((await p.hub.api.get('/v1/settings')).body.slug).toBe(p.hub.restaurant.slug);

    const ok = await p.hub.api.patch('/v1/settings', { slug: 'bistro-renamed' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // the cloud renamed A before the hub did, without waiting for a push
    expect((await cloudRow(p.hub.restaurant.id)).slug).toBe('bistro-renamed');
    // and B now cannot take A's old slug either
    expect((await p.cloud.api.patch('/v1/settings', { slug: p.hub.restaurant.slug })).status).toBe(409);
  });

  it('a rename while the cloud cannot be reached is refused; the old address stays', async () => {
    const db = p.hub.server.services.db;
    const link = (await readLink(db))!;
    await db.updateTable('sync_link').set({ cloud_url: 'http://127.0.0.1:9' }).where('id', '=', 1).execute();
    try {
      const r = await p.hub.api.patch('/v1/settings', { slug: 'offline-rename' });
      expect(r.status, JSON.stringify(r.body)).toBe(503);
      expect(r.body.error.code).toBe('service_unavailable');
      expect((await p.hub.api.get('/v1/settings')).body.slug).toBe('bistro-renamed');
    } finally {
      await db.updateTable('sync_link').set({ cloud_url: link.cloud_url }).where('id', '=', 1).execute();
    }
  });

  it('a raw push of B’s slug, as slug or as former slug, is refused whole; A keeps its address', async () => {
    const own = await cloudRow(p.hub.restaurant.id);
    for (const row of [
      { ...own, slug: bOld },
      { ...own, former_slugs: JSON.stringify([bNow]) },
      { ...own, former_slugs: JSON.stringify([...JSON.parse(own.former_slugs ?? '[]'), bOld]) },
    ]) {
      const res = await pushOwn(row);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.code).toBe('sync_restaurant_mismatch');
    }
    // nor can a push hold a pile of free addresses as former slugs
    const pile = await pushOwn({ ...own, former_slugs: JSON.stringify(Array.from({ length: 30 }, (_, i) => `squat-${i}`)) });
    expect(pile.status, JSON.stringify(pile.body)).toBe(400);
    const after = await cloudRow(p.hub.restaurant.id);
    expect(after.slug).toBe('bistro-renamed');
    expect(after.former_slugs).toBe(own.former_slugs);
    // its own slugs still go through
    expect((await pushOwn({ ...own, name: own.name })).status).toBe(200);
  });
});
