import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { ulid } from 'ulid';
import { startBaseline } from './baseline.ts';
import { load } from './load.ts';
import type { BenchContext } from './scenario.ts';

/**
 * What any order route pays on this machine before its own code counts, measured beside it:
 *  - the route alone: the same request refused by validation (key check, body, schema, error
 *    answer; no database);
 *  - the rows alone: the exact statements one real order ran, replayed with fresh ids on a
 *    copy of the database, 32 orders per synced commit as group commit does, with no HTTP
 *    and no domain code.
 * Both run on the server's one thread in the real thing, so 1 / (route + rows) is the most
 * a single-threaded server can do; the order scenario's target is read against it.
 */
export async function orderFloors(ctx: BenchContext, body: string): Promise<string[]> {
  const real = await ctx.api.post('/v1/orders', JSON.parse(body));
  if (real.status !== 201) throw new Error(`floor: order refused: ${JSON.stringify(real.body)}`);
  // the scenario's own yardstick: bare Koa answering this very order's JSON
  const base = await startBaseline(real.body);
  let baseline: number;
  try {
    baseline = (await load(base.url, { path: '/' })).rps;
  } finally {
    await base.close();
  }

  const refused = JSON.parse(body);
  refused.items[0].quantity = 0;
  const route = await load(ctx.url, {
    method: 'POST',
    path: '/v1/orders',
    headers: { 'x-api-key': ctx.keys.secret },
    body: JSON.stringify(refused),
  });
  if (route.non2xx === 0) throw new Error('floor: the refused order was accepted');

  const statements = await recordOneOrder(() => ctx.api.post('/v1/orders', JSON.parse(body)));
  const rowsUs = replayRows(ctx.databaseFile, statements, 2000).wall;
  const routeUs = 1e6 / route.rps;
  const ceiling = 1e6 / (routeUs + rowsUs);
  const pct = (rps: number) => `${((rps / baseline) * 100).toFixed(1)} % of baseline`;
  return [
    `floor, the route alone (same order refused by validation, no database): ${route.rps.toFixed(0)} req/s = ${pct(route.rps)}, ${routeUs.toFixed(0)} µs each`,
    `floor, the rows alone (${statements.length} statements of a real order replayed, 32 per synced commit, no HTTP, no domain code): ${rowsUs.toFixed(0)} µs per order`,
    `ceiling on one thread, 1 / (route + rows): ${ceiling.toFixed(0)} req/s = ${pct(ceiling)} (baseline ${baseline.toFixed(0)} req/s)`,
  ];
}

export interface Recorded {
  sql: string;
  params: unknown[];
  reader: boolean;
}

/** The writes of the one transaction `act` commits, as the server ran them on its connection. */
export async function recordOneOrder(act: () => Promise<unknown>): Promise<Recorded[]> {
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<'run' | 'all', (...a: unknown[]) => unknown>;
  probe.close();
  const original = { run: proto.run, all: proto.all };
  const seen: Recorded[] = [];
  let state = 'before' as 'before' | 'in' | 'done';
  const spy = (kind: 'run' | 'all') =>
    function (this: SQLite.Statement, ...args: unknown[]) {
      const sql = this.source.trim();
      if (/^begin/i.test(sql) && state === 'before') state = 'in';
      else if (/^commit/i.test(sql) && state === 'in') state = 'done';
      else if (state === 'in' && !/^(select|savepoint|release|rollback)/i.test(sql)) {
        seen.push({ sql, params: (Array.isArray(args[0]) ? args[0] : args) as unknown[], reader: kind === 'all' });
      }
      return original[kind].apply(this, args);
    };
  proto.run = spy('run');
  proto.all = spy('all');
  try {
    await act();
  } finally {
    proto.run = original.run;
    proto.all = original.all;
  }
  if (state !== 'done' || seen.length === 0) throw new Error('floor: no committed order was seen');
  return seen;
}

const ID = /^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Column names of an INSERT, in order. */
function insertColumns(sql: string): { table: string; columns: string[] } | null {
  const m = /^insert into "(\w+)" \(([^)]*)\)/i.exec(sql);
  if (!m) return null;
  return { table: m[1], columns: m[2].split(',').map((c) => c.trim().replace(/"/g, '')) };
}

/**
 * µs per order to run `statements` again `n` times on a copy of the database, 32 orders a
 * commit: wall time, and the process's CPU time (`cpu`) over the same loop.
 */
export function replayRows(file: string, statements: Recorded[], n: number): { wall: number; cpu: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-floor-'));
  const copy = path.join(dir, 'copy.sqlite');
  try {
    const source = new SQLite(file, { readonly: true });
    source.exec(`vacuum into '${copy}'`);
    source.close();
    const db = new SQLite(copy);
    // as the server runs: WAL, a synced commit, checkpoints left to another thread
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('wal_autocheckpoint = 0');
    const orders = freshOrders(db, statements, n);
    const prepared = statements.map((s) => db.prepare(s.sql));
    const begin = db.prepare('begin');
    const commit = db.prepare('commit');
    const savepoint = db.prepare('savepoint unit');
    const release = db.prepare('release unit');
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < n; i += 32) {
      begin.run();
      for (const params of orders.slice(i, i + 32)) {
        savepoint.run();
        prepared.forEach((stmt, j) => (statements[j].reader ? stmt.all(params[j]) : stmt.run(params[j])));
        release.run();
      }
      commit.run();
    }
    const wall = ((performance.now() - started) * 1000) / n;
    const used = process.cpuUsage(cpu0);
    db.close();
    return { wall, cpu: (used.user + used.system) / n };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The parameters of `n` more orders like the recorded one: every id it created (an `id` or
 * `op_id` it inserted) is new, wherever it appears (a JSON copy too); change-log positions
 * continue the node's sequence; order numbers are made unique.
 */
function freshOrders(db: SQLite.Database, statements: Recorded[], n: number): unknown[][][] {
  const created = new Set<string>();
  for (const s of statements) {
    const ins = insertColumns(s.sql);
    if (!ins) continue;
    const width = ins.columns.length;
    ins.columns.forEach((c, i) => {
      if (c !== 'id' && c !== 'op_id') return;
      for (let r = i; r < s.params.length; r += width) if (typeof s.params[r] === 'string' && ID.test(s.params[r] as string)) created.add(s.params[r] as string);
    });
  }
  let seq = Number((db.prepare('select seq from node_state where id = 1').get() as { seq: number }).seq);
  const out: unknown[][][] = [];
  for (let k = 0; k < n; k++) {
    const renamed = new Map([...created].map((id) => [id, `${id.slice(0, id.indexOf('_'))}_${ulid()}`]));
    const swap = (v: unknown) => {
      if (typeof v !== 'string') return v;
      const whole = renamed.get(v);
      if (whole) return whole;
      let s = v;
      if (s.length > 30) for (const [from, to] of renamed) if (s.includes(from)) s = s.replaceAll(from, to);
      return s;
    };
    out.push(
      statements.map((s) => {
        const params = s.params.map(swap);
        const ins = insertColumns(s.sql);
        if (ins?.table === 'change_log') {
          const width = ins.columns.length;
          const at = (c: string) => ins.columns.indexOf(c);
          for (let r = 0; r < params.length; r += width) {
            seq++;
            params[r + at('seq')] = seq;
            params[r + at('origin_seq')] = seq;
          }
        }
        if (ins?.table === 'orders') params[ins.columns.indexOf('order_number')] = `F${k}`;
        return params;
      }),
    );
  }
  return out;
}
