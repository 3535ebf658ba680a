import fs from 'node:fs';
import { catchUpPositions } from './log-positions.ts';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { PreparingClient } from './pg-prepared.ts';
import pg from 'pg';
import { ulid } from 'ulid';
import { DATA_DIR_MODE, DATA_FILE_MODE, makeDirSync } from '../make-dir.ts';
import type { DB } from './schema.ts';
import { startCheckpointer, type Checkpointer } from './checkpointer.ts';
import { migrations } from './migrations/index.ts';
import { registerRawSqlite } from './statement-shapes.ts';
import { queryVersions, registerVersions, sqliteVersions, type Versions } from './versions.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** For PostgreSQL: the connection string (realtime fan-out opens its own LISTEN connection). */
  url: string | null;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL connection string; when absent the hub's embedded SQLite is used. */
  databaseUrl?: string | null;
  /** Directory for the SQLite file (created if missing). ':memory:' for a throwaway database. */
  dataDir?: string;
  pgPoolSize?: number;
  /** SQLite: how long a write waits for another process's lock before giving up (503), default 5 s */
  busyTimeoutMs?: number;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const database = opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.pgPoolSize) : openSqlite(opts.dataDir ?? './data', opts.busyTimeoutMs ?? 5000);
  try {
    await migrate(database.db);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

/**
 * The database holds staff password hashes, guests' phones and sealed secrets: it is made
 * readable by the hub's account only (SQLite would make it 0644), before SQLite opens it.
 */
function createPrivately(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', DATA_FILE_MODE));
  } catch (err: any) {
    if (err.code !== 'EEXIST') throw err;
    tighten(file);
  }
}

function tighten(file: string): void {
  try {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, DATA_FILE_MODE);
  } catch {
    // not there, or not ours to change (a copy opened read-only by a tool): left as it is
  }
}

function openSqlite(dataDir: string, busyTimeoutMs: number): Database {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    makeDirSync(dataDir, DATA_DIR_MODE);
    file = path.join(dataDir, 'comanda.sqlite');
    createPrivately(file);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // SQLite gives the -wal and -shm files the database file's mode; ones left by an older start are tightened too
  if (file !== ':memory:') for (const extra of ['-wal', '-shm']) tighten(file + extra);
  let checkpointer: Checkpointer | null = null;
  if (file !== ':memory:') {
    checkpointer = startCheckpointer(file);
    // a safety net only (about 40 MB of log): the checkpointer keeps the log short
    sqlite.pragma('wal_autocheckpoint = 10000');
  }
  // FULL: a commit is on disk before anyone is told it happened, so an order the kitchen was
  // shown survives a pulled plug. Group commit (db/transact.ts) pays one sync per batch.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  // kysely prepares every statement anew; the hub runs the same few hundred statements all
  // day, so keeping them prepared saves a parse and plan per query.
  const statements = new Map<string, SQLite.Statement>();
  const cached = {
    prepare(text: string) {
      // Kysely begins with a plain (deferred) BEGIN. Another process on the file (a `comanda`
      // command beside `comanda serve`) committing between such a transaction's first read and
      // its first write makes that write fail at once with "database is locked": the busy
      // timeout cannot help a stale snapshot. IMMEDIATE takes the write lock at BEGIN, so the
      // two wait for each other instead; within one process there is one connection anyway.
      const sql = text === 'begin' ? 'begin immediate' : text;
      let stmt = statements.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        if (statements.size < 2000) statements.set(sql, stmt);
      }
      return stmt;
    },
    close: () => sqlite.close(),
  };
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: cached as unknown as SQLite.Database }) });
  registerRawSqlite(db, sqlite);
  registerVersions(db, lazyVersions(() => sqliteVersions(sqlite)));
  return {
    db,
    dialect: 'sqlite',
    url: null,
    async close() {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

// bigint and numeric come back as strings from pg by default; every such value here
// (money, Unix seconds, counts) fits a double exactly.
const toNumber = (v: string) => (v === null ? null : Number(v));
const pgTypes = {
  getTypeParser(oid: number, format?: any) {
    if (oid === 20 || oid === 1700) return toNumber;
    return pg.types.getTypeParser(oid, format);
  },
};

function openPostgres(url: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max, types: pgTypes as any, Client: PreparingClient });
  // An idle connection dropped by the server (restart, failover) must not crash the
  // process: the pool discards it and the next query opens a new one.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  registerVersions(db, queryVersions);
  return { db, dialect: 'postgres', url, close: () => db.destroy() };
}

/** Statements on the change log can only be prepared once the migrations made it. */
function lazyVersions(make: () => Versions): Versions {
  let made: Versions | undefined;
  return { of: (db, restaurantId, tables) => (made ??= make()).of(db, restaurantId, tables) };
}

export async function migrate(db: Kysely<DB>): Promise<void> {
  // Each feature owns a range of names, so a later migration may sort before one applied earlier.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(error as Error).message ?? error}`);
  }
  await catchUpPositions(db);
  // The node's identity is made once, on the first start of a fresh database.
  const state = await db.selectFrom('node_state').select('origin').executeTakeFirst();
  if (!state) {
    await db
      .insertInto('node_state')
      .values({ id: 1, origin: `node_${ulid().toLowerCase()}`, seq: 0, compacted_through: 0 })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }
}
