import type { Kysely } from 'kysely';
import type { Executor } from './executor.ts';

/**
 * Hybrid logical clocks: every change a node makes is stamped with a time that never runs
 * backwards on that node and is later than every change it has seen from others, so
 * "last writer wins" means the same thing on the hub and in the cloud. A stamp is text
 * that sorts as it compares: 12 hex digits of milliseconds, 4 of a counter, the node.
 *
 * The last stamp a node handed out (or applied) for a restaurant is persisted in its
 * `log_clocks` row and read under that row's lock, which orders the restaurant's log
 * positions (db/log-positions.ts). So every process of one node (several cloud processes on
 * one PostgreSQL, the CLI beside `serve`) stamps a restaurant's changes in the order they
 * commit, whatever its own wall clock says. Stamps of different restaurants are not ordered
 * with each other, and need not be: a row, and so every merge, belongs to one restaurant.
 * Memory holds only the wall clock and the offset sync measured.
 */

/**
 * How far ahead of a node's clock another node's stamp may be. The cloud refuses a push
 * holding a stamp beyond it (sync/cloud.ts); the hub re-dates such stamps of its own before
 * it sends them (sync/clock.ts). Within it a stamp is taken as it is and this node's clock
 * moves past it, so a later local edit still wins.
 */
export const MAX_AHEAD_MS = 5 * 60_000;

interface State {
  /** the node's wall clock in ms (createServer registers its injected clock) */
  now: () => number;
  /** added to now(): the cloud's clock minus this node's, once sync has measured it */
  offsetMs: number;
}

const states = new WeakMap<object, State>();

function stateOf(db: Executor): State {
  const key = (db as Kysely<any>).getExecutor().adapter;
  let s = states.get(key);
  if (!s) states.set(key, (s = { now: Date.now, offsetMs: 0 }));
  return s;
}

/** The clock this database's stamps follow (one process may hold several databases: tests). */
export function registerClock(db: Executor, now: () => number): void {
  stateOf(db).now = now;
}

/** Sync corrects a node whose clock is wrong by what it measured against the cloud. */
export function setClockOffset(db: Executor, offsetMs: number): void {
  stateOf(db).offsetMs = offsetMs;
}

export function clockOffset(db: Executor): number {
  return stateOf(db).offsetMs;
}

/** This node's idea of the time (the cloud's, on a linked hub). */
export function physicalNow(db: Executor): number {
  const s = stateOf(db);
  return s.now() + s.offsetMs;
}

export function formatHlc(ms: number, counter: number, node: string): string {
  return `${ms.toString(16).padStart(12, '0')}.${counter.toString(16).padStart(4, '0')}.${node}`;
}

export function parseHlc(hlc: string): { ms: number; counter: number } {
  return { ms: parseInt(hlc.slice(0, 12), 16), counter: parseInt(hlc.slice(13, 17), 16) };
}

/** A stamp is 12 hex, a dot, 4 hex, a dot and a short node name. */
export const HLC_PATTERN = /^[0-9a-f]{12}\.[0-9a-f]{4}\.[0-9a-z_]{1,16}$/;

/** The short name a node signs its stamps with. */
export const nodeOf = (origin: string) => origin.slice(-8).toLowerCase();

/** A clock for one unit's log entries: starts after the persisted stamp, read under the lock. */
export class StampClock {
  private ms = 0;
  private counter = 0;

  constructor(
    private readonly wall: number,
    persisted: string | null,
  ) {
    if (persisted) this.observe(persisted);
  }

  /** The next stamp for a change made here. */
  next(node: string): string {
    if (this.wall > this.ms) {
      this.ms = this.wall;
      this.counter = 0;
    } else if (++this.counter > 0xffff) {
      this.ms++;
      this.counter = 0;
    }
    return formatHlc(this.ms, this.counter, node);
  }

  /**
   * A change from another node was applied: later local changes sort after it, however far
   * ahead it is (what may arrive is bounded where it enters: MAX_AHEAD_MS).
   */
  observe(stamp: string): void {
    const t = parseHlc(stamp);
    if (t.ms > this.ms || (t.ms === this.ms && t.counter > this.counter)) {
      this.ms = t.ms;
      this.counter = t.counter;
    }
  }

  /** The last stamp handed out or observed, to persist. */
  last(node: string): string {
    return formatHlc(this.ms, this.counter, node);
  }
}

/** A clock for the unit of work about to log on `db`, after the persisted stamp. */
export function stampClock(db: Executor, persisted: string | null): StampClock {
  return new StampClock(physicalNow(db), persisted);
}
