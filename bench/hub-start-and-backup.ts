// node --import tsx bench/hub-start-and-backup.ts DATA_DIR
// On an existing hub data dir (e.g. `comanda demo --history-days 730 --orders-per-day 1400`,
// about a million orders): how long `comanda serve` takes from process start to /health
// answering, and how long an online backup takes while /health is asked every few ms (the
// slowest answer during the backup is how long requests were held up).
import { spawn } from 'node:child_process';
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
const key = await new Transactor(database.db).run((trx) => createApiKey(trx, Date.now(), { restaurantId: restaurant.id, kind: 'secret', livemode: true, scopes: ['settings:read', 'settings:write'], name: 'bench' }));
await database.close();

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const started = performance.now();
const child = spawn(process.execPath, ['bin/comanda', 'serve', '--data-dir', dataDir, '--port', String(port), '--host', '127.0.0.1'], {
  env: { ...process.env, LOG_LEVEL: 'warn', MDNS: 'off' },
  stdio: 'ignore',
});
for (;;) {
  try {
    if ((await fetch(`${url}/health`)).ok) break;
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 5));
}
const coldStartMs = performance.now() - started;

const latencies: number[] = [];
let backingUp = true;
const poller = (async () => {
  while (backingUp) {
    const t = performance.now();
    await fetch(`${url}/health`);
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 5));
  }
})();
const b0 = performance.now();
const res = await fetch(`${url}/v1/system/backups`, { method: 'POST', headers: { 'x-api-key': key.key } });
const backupMs = performance.now() - b0;
backingUp = false;
await poller;
const backup = (await res.json()) as { size_bytes?: number };
child.kill('SIGTERM');
latencies.sort((a, b) => a - b);
console.log(
  JSON.stringify(
    {
      orders,
      cold_start_ms: Math.round(coldStartMs),
      backup_status: res.status,
      backup_ms: Math.round(backupMs),
      backup_bytes: backup.size_bytes,
      health_requests_during_backup: latencies.length,
      health_p50_ms: +latencies[Math.floor(latencies.length / 2)]?.toFixed(1),
      health_p99_ms: +latencies[Math.floor(latencies.length * 0.99)]?.toFixed(1),
      health_max_ms: +latencies.at(-1)!.toFixed(1),
    },
    null,
    2,
  ),
);
