// node --import tsx bench/hub-start-and-backup.ts DATA_DIR
// On an existing hub data dir (e.g. `comanda demo --history-days 730 --orders-per-day 1400`,
// about a million orders): how long `comanda serve` takes from process start to /health
// answering (three starts), and how long an online backup takes while /health is asked every
// few ms (the slowest answer during the backup is how long requests were held up), next to
// the same polling for 10 s before it with nothing else running.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { createApiKey } from '../server/domain/keys/create-key.ts';
import { openDatabase } from '../server/db/database.ts';
import { Transactor } from '../server/db/transact.ts';
import { freePort } from '../test/helpers/free-port.ts';

const dataDir = path.resolve(process.argv[2] ?? '');
if (!process.argv[2]) throw new Error('usage: bench/hub-start-and-backup.ts DATA_DIR');

const count = new SQLite(path.join(dataDir, 'comanda.sqlite'), { readonly: true });
const orders = (count.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;
count.close();
// a key for the backup route, made before the clock starts
const database = await openDatabase({ dataDir });
const restaurant = await database.db.selectFrom('restaurants').select('id').orderBy('created').executeTakeFirstOrThrow();
const key = await new Transactor(database.db).run((trx) => createApiKey(trx, Date.now(), { restaurantId: restaurant.id, kind: 'secret', livemode: true, scopes: ['settings:read', 'settings:write'], name: 'bench', grantedBy: 'operator' }));
await database.close();

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const serve = () =>
  spawn(process.execPath, ['bin/comanda', 'serve', '--data-dir', dataDir, '--port', String(port), '--host', '127.0.0.1'], {
    env: { ...process.env, LOG_LEVEL: 'warn', MDNS: 'off' },
    stdio: 'ignore',
  });
const stopped = (c: ReturnType<typeof serve>) =>
  new Promise<void>((resolve) => {
    c.once('exit', () => resolve());
    c.kill('SIGTERM');
  });
// COLD_STARTS (default 3) starts in a row, the last one kept for the backup: the box is shared
const coldStarts: number[] = [];
let child: ReturnType<typeof serve>;
for (;;) {
  const started = performance.now();
  child = serve();
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  coldStarts.push(Math.round(performance.now() - started));
  if (coldStarts.length >= Number(process.env.COLD_STARTS ?? 3)) break;
  await stopped(child);
}

/**
 * /health asked every few ms while `during` runs: how long each answer took (sorted), and
 * the slowest five as `ms@offset` (when they were asked, from the start), to tell the copy,
 * its check and its last steps apart.
 */
async function healthWhile<T>(during: () => Promise<T>): Promise<{ result: T; latencies: number[]; slowest: string[] }> {
  const asked: [number, number][] = [];
  const t0 = performance.now();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const t = performance.now();
      await fetch(`${url}/health`);
      asked.push([performance.now() - t, t - t0]);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const result = await during();
  polling = false;
  await poller;
  asked.sort((a, b) => a[0] - b[0]);
  return { result, latencies: asked.map(([ms]) => ms), slowest: asked.slice(-5).reverse().map(([ms, at]) => `${ms.toFixed(0)}@${(at / 1000).toFixed(1)}s`) };
}
const pct = (sorted: number[], p: number) => +(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(1);

// The same polling with nothing else going on (IDLE_MS, default 10 s): how slow the box alone
// makes an answer, to read the figures during the backup against.
const idle = await healthWhile(() => new Promise((r) => setTimeout(r, Number(process.env.IDLE_MS ?? 10_000))));
const b0 = performance.now();
const { result: res, latencies, slowest } = await healthWhile(() => fetch(`${url}/v1/system/backups`, { method: 'POST', headers: { 'x-api-key': key.key } }));
const backupMs = performance.now() - b0;
const backup = (await res.json()) as { size_bytes?: number; file?: string };
await stopped(child);
// a bench run leaves no copy of gigabytes behind
if (backup.file) await fs.promises.rm(path.join(dataDir, 'backups', backup.file), { force: true });
console.log(
  JSON.stringify(
    {
      orders,
      cold_start_ms: coldStarts,
      cold_start_median_ms: [...coldStarts].sort((a, b) => a - b)[Math.floor(coldStarts.length / 2)],
      backup_status: res.status,
      backup_ms: Math.round(backupMs),
      backup_bytes: backup.size_bytes,
      health_requests_during_backup: latencies.length,
      health_p50_ms: pct(latencies, 0.5),
      health_p99_ms: pct(latencies, 0.99),
      health_max_ms: pct(latencies, 1),
      health_slowest_during_backup: slowest,
      idle_health_p99_ms: pct(idle.latencies, 0.99),
      idle_health_max_ms: pct(idle.latencies, 1),
    },
    null,
    2,
  ),
);
