import { Worker } from 'node:worker_threads';

/**
 * The hub's side of the audit, read and hashed on a worker thread with a read-only SQLite
 * connection of its own. better-sqlite3 reads synchronously: on the thread that serves, a
 * venue's whole `order_items` (20,000 rows after a week) held the event loop for 0.3–3 s,
 * and every push, pull and order waited behind it. WAL lets this reader run beside the
 * writer without blocking it. Plain CommonJS for an eval'd worker; `canonical` and `rowHash`
 * below must stay those of sync/audit.ts (test/sync/audit-thread.test.ts compares the two).
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const SQLite = require(workerData.module);
const { file, restaurantId, tables, detail, hashes: byRow, pause } = workerData;
const db = new SQLite(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const out = { tables: {} };
if (detail) out[byRow ? 'hashes' : 'rows'] = {};
let hashed = 0;
try {
  for (const { table, skip } of tables) {
    if (detail && !(detail[table] && detail[table].length)) continue;
    const skipped = new Set(skip);
    const want = new Set((detail && detail[table]) || []);
    const hashes = new Map();
    const where = table === 'restaurants' ? '"id"' : '"restaurant_id"';
    let rows = 0;
    for (const r of db.prepare('select * from "' + table + '" where ' + where + ' = ? order by "id"').iterate(restaurantId)) {
      // a test holds the audit here, mid-table, to see that sync goes on meanwhile
      if (pause && ++hashed === pause.afterRows) {
        Atomics.store(pause.flags, 0, 1);
        while (Atomics.load(pause.flags, 1) === 0) Atomics.wait(pause.flags, 1, 0, 1000);
      }
      rows++;
      const id = String(r.id);
      const b = id.slice(-1).toUpperCase();
      const keys = Object.keys(r).filter((k) => !skipped.has(k)).sort();
      const canonical = JSON.stringify(keys.map((k) => [k, r[k] === undefined ? null : r[k]]));
      const h = createHash('sha256').update(canonical).digest('hex').slice(0, 16);
      if (!hashes.has(b)) hashes.set(b, createHash('sha256'));
      hashes.get(b).update(id + ':' + h + '\\n');
      if (want.has(b)) {
        if (byRow) (out.hashes[table] ??= {})[id] = h;
        else (out.rows[table] ??= {})[id] = r;
      }
    }
    out.tables[table] = { rows, buckets: Object.fromEntries([...hashes].map(([b, h]) => [b, h.digest('hex').slice(0, 16)])) };
  }
  parentPort.postMessage({ ok: out });
} catch (err) {
  parentPort.postMessage({ error: String((err && err.message) || err) });
} finally {
  db.close();
}
`;

/** Holds the audit after this many rows until released (tests: sync goes on meanwhile). */
export interface AuditPause {
  afterRows: number;
  /** [0]: set to 1 by the audit once it holds; [1]: set to 1 to release it */
  flags: Int32Array;
}

export interface ThreadAuditInput {
  file: string;
  /** better-sqlite3, resolved where the app runs */
  module: string;
  restaurantId: string;
  /** the tables in audit order, each with the columns left out of its rows' hashes */
  tables: { table: string; skip: string[] }[];
  detail?: Record<string, string[]>;
  /** with `detail`: per-row hashes of those buckets, not their rows (a small message to post) */
  hashes?: boolean;
  pause?: AuditPause;
}

export function auditOnThread<T>(input: ThreadAuditInput): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: input });
    let settled = false;
    worker.once('message', (m: { ok?: T; error?: string }) => {
      settled = true;
      if (m.error !== undefined) reject(new Error(`the audit could not read the hub's database: ${m.error}`));
      else resolve(m.ok as T);
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the audit's reader stopped (exit ${code})`));
    });
  });
}
