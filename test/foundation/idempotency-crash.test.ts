import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Transactor } from '../../server/db/transact.ts';
import { provisionRestaurant } from '../../server/domain/restaurants/provision.ts';
import { LOCKS } from '../../server/db/row-locks.ts';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';
import { ApiClient, type ApiResponse } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';

// kill -9 of a real `bin/comanda serve` while a burst of orders is in flight. A terminal then
// retries every order it sent with the same Idempotency-Key and body: each retry is answered
// normally on its first try (never 409 idempotency_key_in_use), with the order the dead process
// committed or a fresh one, and no key ever makes two orders.

const BIN = path.resolve('bin/comanda');
const TERMINALS = 16;

interface Child {
  proc: ChildProcess;
  url: string;
  firstRun: any;
  stderr: () => string;
}

async function serve(args: string[]): Promise<Child> {
  const proc = spawn(process.execPath, [BIN, 'serve', ...args, '--port', '0', '--host', '127.0.0.1', '--json'], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`comanda serve exited (${code}): ${err}`)));
  });
  const info = JSON.parse(line);
  return { proc, url: info.url, firstRun: info.first_run, stderr: () => err };
}

const exited = (p: ChildProcess) =>
  new Promise<void>((resolve) => (p.exitCode !== null || p.signalCode !== null ? resolve() : p.once('exit', () => resolve())));

/** A category and an item to order, made with the live key. */
async function menuItem(api: ApiClient): Promise<string> {
  const category = await api.post('/v1/menu_categories', { name: 'Mains' });
  const item = await api.post('/v1/menu_items', { name: 'Risotto', category: category.body.id, price: 1400 });
  expect(item.status, JSON.stringify(item.body)).toBe(201);
  return item.body.id;
}

const orderBody = (item: string, key: string) => ({ type: 'takeout', items: [{ menu_item: item, quantity: 1 }], notes: key });

/**
 * Terminals placing orders back to back, each with a key of its own, until stopped. Answers
 * that never come (the server was killed) are kept as null.
 */
function burst(api: ApiClient, item: string) {
  const sent = new Map<string, ApiResponse | null>();
  let stopped = false;
  let n = 0;
  const terminals = Array.from({ length: TERMINALS }, async (_, t) => {
    while (!stopped) {
      const key = `till-${t}-${n++}`;
      sent.set(key, null);
      const res = await api.post('/v1/orders', orderBody(item, key), { headers: { 'idempotency-key': key } }).catch(() => null);
      sent.set(key, res);
    }
  });
  return {
    sent,
    answered: () => [...sent.values()].filter((r) => r?.status === 201).length,
    /** no new orders from now on (the ones under way go on) */
    halt: () => {
      stopped = true;
    },
    done: () => Promise.all(terminals),
  };
}

/** Every key again, one terminal at a time as tills would; every answer must be the normal one. */
async function retryAll(api: ApiClient, item: string, sent: Map<string, ApiResponse | null>, inFlight: Set<string>) {
  for (const [key, first] of sent) {
    let res = await api.post('/v1/orders', orderBody(item, key), { headers: { 'idempotency-key': key } });
    // the rate limit (200 at once, 100/s) is the only other answer a till waits for
    while (res.status === 429) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      res = await api.post('/v1/orders', orderBody(item, key), { headers: { 'idempotency-key': key } });
    }
    expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(201);
    if (first?.status === 201) {
      expect(res.body.id).toBe(first.body.id);
      expect(res.headers.get('idempotent-replayed')).toBe('true');
    }
    if (inFlight.has(key)) expect(res.headers.get('idempotent-replayed')).toBeNull(); // made now, by the retry
  }
}

function expectOneOrderPerKey(notes: string[], sent: Map<string, unknown>) {
  const counts = new Map<string, number>();
  for (const n of notes) counts.set(n, (counts.get(n) ?? 0) + 1);
  expect([...counts.values()].filter((c) => c > 1)).toEqual([]);
  expect(new Set(notes)).toEqual(new Set(sent.keys()));
}

describe('Idempotency-Keys after kill -9', { timeout: 240_000 }, () => { // 240 s: kill -9 of a real server mid-burst, then a restart
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it.runIf(DIALECTS.includes('sqlite'))('the hub (SQLite): a retry after the restart is answered at once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-idem-crash-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const first = await serve(['--data-dir', dir]);
    cleanups.push(() => first.proc.kill('SIGKILL'));
    const api = new ApiClient(first.url, first.firstRun.keys.secret);
    const item = await menuItem(api);

    const load = burst(api, item);
    await until('part of the burst answered', () => load.answered() >= 40, 60_000);
    // Hold the write lock so nothing commits while we look: the claims seen in flight are
    // exactly those the kill leaves behind.
    const file = new SQLite(path.join(dir, 'comanda.sqlite'));
    cleanups.push(() => file.close());
    file.pragma('busy_timeout = 30000');
    let inFlight = new Set<string>();
    await until('claims in flight at the moment of the kill', async () => {
      file.exec('BEGIN IMMEDIATE');
      const rows = file.prepare(`select key from idempotency_keys where state = 'in_flight'`).all() as { key: string }[];
      inFlight = new Set(rows.map((r) => r.key.replace(/^[^:]*:/, '')));
      if (inFlight.size > 0) return true;
      file.exec('ROLLBACK');
      return false;
    }, 60_000);
    load.halt();
    first.proc.kill('SIGKILL');
    await exited(first.proc);
    file.exec('ROLLBACK');
    await load.done();

    const second = await serve(['--data-dir', dir]);
    cleanups.push(() => second.proc.kill('SIGKILL'));
    const api2 = new ApiClient(second.url, first.firstRun.keys.secret);
    expect((await api2.get('/health', { key: null })).status).toBe(200);
    await retryAll(api2, item, load.sent, inFlight);

    const notes = (file.prepare(`select notes from orders`).all() as { notes: string }[]).map((r) => r.notes);
    expectOneOrderPerKey(notes, load.sent);
    second.proc.kill('SIGTERM');
    await exited(second.proc);
    expect(second.proc.exitCode, second.stderr()).toBe(0);
  });

  it.runIf(DIALECTS.includes('postgres'))('the cloud (PostgreSQL): another process answers the retry at once, and a restarted one frees the rest at start', async () => {
    const database = await freshDatabase('postgres');
    cleanups.push(() => database.close());
    const { keys } = await provisionRestaurant(new Transactor(database.db), Date.now(), { name: 'Cloud Bistro', slug: 'cloud-bistro' });
    const a = await serve(['--database-url', database.url!]);
    cleanups.push(() => a.proc.kill('SIGKILL'));
    const b = await serve(['--database-url', database.url!]);
    cleanups.push(() => b.proc.kill('SIGKILL'));
    const api = new ApiClient(a.url, keys.secret);
    const item = await menuItem(api);

    const load = burst(api, item);
    await until('part of the burst answered', () => load.answered() >= 40, 60_000);
    // Stall every order of process A after its claim, so claims are surely in flight at the kill.
    const stall = new pg.Client({ connectionString: database.url! });
    await stall.connect();
    cleanups.push(() => stall.end().catch(() => undefined));
    await stall.query('begin');
    await stall.query('lock table orders in exclusive mode');
    let inFlight = new Set<string>();
    await until('claims in flight', async () => {
      const r = await stall.query(`select key from idempotency_keys where state = 'in_flight'`);
      inFlight = new Set(r.rows.map((row) => (row.key as string).replace(/^[^:]*:/, '')));
      return inFlight.size >= 2;
    }, 60_000);
    const processA = (await stall.query('select id, lock_key from server_processes where pid = $1', [a.proc.pid])).rows[0];
    expect(processA).toBeDefined();
    load.halt();
    a.proc.kill('SIGKILL');
    await exited(a.proc);
    await stall.query('commit');
    await load.done();
    // PostgreSQL itself notices the closed connection and drops A's lock (no timeout of ours)
    await until('PostgreSQL has seen process A go', async () => {
      const r = await stall.query(
        `select count(*)::int as n from pg_locks where locktype = 'advisory' and classid::int8 = $1 and objid::int8 = $2`,
        [LOCKS.serverProcess, processA.lock_key],
      );
      return r.rows[0].n === 0;
    }, 60_000);

    // One till retries on process B, which was running all along: it takes the dead claim over.
    const [firstHeld, ...restHeld] = inFlight;
    const toB = new Map([...load.sent].filter(([key]) => key === firstHeld || !inFlight.has(key)));
    const apiB = new ApiClient(b.url, keys.secret);
    await retryAll(apiB, item, toB, inFlight);
    // A restarted process frees the remaining dead claims before it answers anything.
    const restarted = await serve(['--database-url', database.url!]);
    cleanups.push(() => restarted.proc.kill('SIGKILL'));
    const held = await stall.query(`select count(*)::int as n from idempotency_keys where owner = $1 and state = 'in_flight'`, [processA.id]);
    expect(held.rows[0].n).toBe(0);
    const toRestarted = new Map([...load.sent].filter(([key]) => restHeld.includes(key)));
    await retryAll(new ApiClient(restarted.url, keys.secret), item, toRestarted, inFlight);

    const notes = (await stall.query('select notes from orders')).rows.map((r) => r.notes as string);
    expectOneOrderPerKey(notes, load.sent);
    for (const p of [b, restarted]) {
      p.proc.kill('SIGTERM');
      await exited(p.proc);
      expect(p.proc.exitCode, p.stderr()).toBe(0);
    }
  });
});
