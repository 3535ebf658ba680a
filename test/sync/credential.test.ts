import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupFile, DB_FILE } from '../../server/operator/backup.ts';
import { credentialOf, readLink } from '../../sync/hub.ts';
import { unlinkHub } from '../../sync/link.ts';
import { PROTOCOL_VERSION } from '../../sync/protocol.ts';
import { until } from '../helpers/until.ts';
import { goOffline, goOnline, startPair } from './helpers.ts';

describe('the hub’s sync credential', () => {
  let p: Awaited<ReturnType<typeof startPair>>;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-synccred-'));
    p = await startPair({ hubDataDir: dir });
    await p.link();
  }, 60_000);
  afterAll(async () => {
    await p?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const hello = (credential: string) =>
    fetch(`${p.cloud.url}/sync/v1/hello`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
      body: JSON.stringify({ protocol: PROTOCOL_VERSION, epoch: 'node_x' }),
    }).then((r) => r.status);
  const filesHolding = (needle: string, files: string[]) => files.filter((f) => fs.existsSync(f) && fs.readFileSync(f).includes(needle));

  it('is kept sealed in the database and so in its backups', async () => {
    const services = p.hub.server.services;
    const link = (await readLink(services.db))!;
    const plain = credentialOf(services, link);
    expect(plain).toMatch(/^shc_/);
    expect(link.credential).toMatch(/^v1\./);
    expect(link.credential).not.toContain(plain);
    // a backup as the nightly job makes it
    const backup = await backupFile(path.join(dir, DB_FILE), path.join(dir, 'backup-test.sqlite'));
    const files = [backup.file, ...fs.readdirSync(dir).filter((f) => f.startsWith('comanda.sqlite')).map((f) => path.join(dir, f))];
    expect(files.length).toBeGreaterThan(1);
    expect(filesHolding(plain, files)).toEqual([]);
  });

  it('one stored in the clear (before this change) is sealed when sync starts, and sync goes on', async () => {
    const services = p.hub.server.services;
    const plain = credentialOf(services, (await readLink(services.db))!);
    await goOffline(p.hub);
    await services.db.updateTable('sync_link').set({ credential: plain, connected: 0 }).where('id', '=', 1).execute();
    goOnline(p.hub);
    await until('the hub keeps its credential sealed (v1.)', async () => (await readLink(services.db))!.credential.startsWith('v1.'));
    expect(credentialOf(services, (await readLink(services.db))!)).toBe(plain);
    await until('the hub is connected', async () => (await p.hub.api.get('/v1/sync/status')).body.connected === true);
  });

  it('unlink revokes it on the cloud: the old credential then gets 401; without the cloud the link stays unless forced', async () => {
    const services = p.hub.server.services;
    await goOffline(p.hub);
    const link = (await readLink(services.db))!;
    const plain = credentialOf(services, link);
    expect(await hello(plain)).toBe(200);

    // the cloud out of reach: nothing is forgotten, and the credential still works there
    await services.db.updateTable('sync_link').set({ cloud_url: 'http://127.0.0.1:9' }).where('id', '=', 1).execute();
    await expect(unlinkHub(services)).rejects.toMatchObject({ code: 'state_conflict' });
    expect(await readLink(services.db)).toBeDefined();
    await services.db.updateTable('sync_link').set({ cloud_url: link.cloud_url }).where('id', '=', 1).execute();

    expect(await unlinkHub(services)).toEqual({ linked: false, was: link.hub_id, revoked: true });
    expect(await readLink(services.db)).toBeUndefined();
    expect(await hello(plain)).toBe(401);
    const row = await p.cloud.server.services.db.selectFrom('sync_hubs').select('revoked_at').where('id', '=', link.hub_id).executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
  });
});
