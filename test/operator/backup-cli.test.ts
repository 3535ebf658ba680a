import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../helpers/server.ts';

const run = promisify(execFile);
const BIN = path.resolve('bin/comanda');
const env = { ...process.env, LOG_LEVEL: 'info', MDNS: 'off' };
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-backup-cli-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function serve(dataDir: string) {
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1', '--json'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', () => reject(new Error(`serve exited: ${out}`)));
  });
  return { child, exited, info: JSON.parse(line) };
}

const comanda = (...args: string[]) => run(process.execPath, [BIN, ...args], { env });

describe('comanda backup and restore (CLI, real hub)', { timeout: 180_000 }, () => { // 180 s: each command a fresh Node process, beside a real hub
  it('backs up a running hub; restore is refused until it stops, then brings the backup back', async () => {
    const dataDir = tmp();
    fs.writeFileSync(path.join(dataDir, 'comanda.json'), JSON.stringify({ mail: { smtp: { host: 'smtp.example.test', port: 587, user: 'owner', pass: 'hunter2-but-longer' } } }));
    const first = await serve(dataDir);
    const key = first.info.first_run.keys.secret;
    let api = new ApiClient(first.info.url, key);
    const cat = await api.post('/v1/menu_categories', { name: 'Pasta' });
    const item = await api.post('/v1/menu_items', { name: 'Carbonara', category: cat.body.id, price: 1450 });
    const before = await api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: item.body.id, quantity: 2 }] });
    expect(before.status).toBe(201);

    const file = path.join(tmp(), 'before-dinner.sqlite');
    const made = JSON.parse((await comanda('backup', '--data-dir', dataDir, '--to', file, '--json')).stdout);
    expect(made).toMatchObject({ file });
    expect(made.size_bytes).toBe(fs.statSync(file).size);
    const after = await api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: item.body.id, quantity: 1 }] });

    const refused = await comanda('restore', '--data-dir', dataDir, file).then(
      () => null,
      (err) => err,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`restore refused: a hub (pid ${first.info.pid}) is running`);
    expect((await api.get(`/v1/orders/${after.body.id}`)).status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const restored = JSON.parse((await comanda('restore', '--data-dir', dataDir, file, '--json')).stdout);
    expect(restored.restored).toBe(file);
    expect(fs.existsSync(restored.kept_aside)).toBe(true);
    expect(restored.epoch).toMatch(/^node_/);

    const second = await serve(dataDir);
    try {
      api = new ApiClient(second.info.url, key);
      expect(second.info.first_run).toBeNull();
      expect((await api.get(`/v1/orders/${before.body.id}`)).body.items[0].quantity).toBe(2);
      // the order taken after the backup is not in it
      expect((await api.get(`/v1/orders/${after.body.id}`)).status).toBe(404);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }

    const bad = await comanda('restore', '--data-dir', dataDir, path.join(dataDir, 'nope.sqlite')).then(
      () => null,
      (err) => err,
    );
    expect(bad.stderr).toContain('does not exist');

    // the support bundle: masked config, versions, database check, the hub's own log
    const bundleFile = path.join(tmp(), 'bundle.json');
    await comanda('support-bundle', '--data-dir', dataDir, '--to', bundleFile, '--json');
    const text = fs.readFileSync(bundleFile, 'utf8');
    expect(text).not.toContain('hunter2-but-longer');
    const bundle = JSON.parse(text);
    expect(bundle.config.mail.smtp).toMatchObject({ host: 'smtp.example.test', pass: '••••er' });
    expect(bundle.versions.node).toBe(process.versions.node);
    expect(bundle.hub.running).toBeNull();
    expect(bundle.database).toMatchObject({ exists: true, quick_check: 'ok', rows: { restaurants: 1, orders: 1 } });
    expect(bundle.database.migrations).toContain('1000_hub_settings');
    expect(bundle.logs['comanda.log'].some((l: string) => l.includes('comanda is serving'))).toBe(true);
    expect(bundle.logs['comanda.log'].some((l: string) => l.includes('stopped'))).toBe(true);
  });

  it('a start that fails (port taken) ends the process, lets go of the data dir and makes no keys it cannot show', async () => {
    const net = await import('node:net');
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as import('node:net').AddressInfo).port;
    const dataDir = tmp();
    try {
      const failed = await comanda('serve', '--data-dir', dataDir, '--port', String(port), '--host', '127.0.0.1', '--json').then(
        () => null,
        (err) => err,
      );
      // one sentence naming the port and what to do, no stack trace (it was Node's `listenInCluster … doListen`)
      expect(failed.code).toBe(2);
      expect(failed.stderr.trim()).toBe(`comanda serve: Port ${port} is already in use by another program (EADDRINUSE). Stop that program, or start comanda with --port <another port>.`);
      expect(fs.existsSync(path.join(dataDir, 'hub.lock'))).toBe(false);
      const bundle = path.join(tmp(), 'b.json');
      await comanda('support-bundle', '--data-dir', dataDir, '--to', bundle);
      expect(JSON.parse(fs.readFileSync(bundle, 'utf8')).database.rows.restaurants).toBe(0);
    } finally {
      taken.close();
    }
  });
});

describe('a data folder this user cannot write', () => {
  it('`comanda serve` says so in one sentence naming the folder and what to do, and exits non-zero', async () => {
    const parent = tmp();
    // root writes anywhere: as root the hub runs as `nobody` against a folder of root's; otherwise the folder is made read-only
    const asRoot = process.getuid?.() === 0;
    fs.chmodSync(parent, asRoot ? 0o755 : 0o555);
    const dataDir = path.join(parent, 'data');
    const user = asRoot ? { uid: 65534, gid: 65534 } : {};
    const failed = await run(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1', '--json'], { ...user, env: { ...process.env, HOME: os.tmpdir() } }).then(
      () => null,
      (err) => err,
    );
    fs.chmodSync(parent, 0o755);
    expect(failed.code).toBe(2);
    expect(failed.stderr.trim()).toBe(`comanda serve: The data folder ${dataDir} cannot be written by this user (EACCES). Give this user write access to it, or start comanda with --data-dir <another folder>.`);
  });
});
