import type { Kysely } from 'kysely';
import type { Executor } from './records.ts';

/**
 * Hybrid logical clocks: every change a node makes is stamped with a time that never runs
 * backwards on that node and is later than every change it has seen from others, so
 * "last writer wins" means the same thing on the hub and in the cloud. A stamp is text
 * that sorts as it compares: 12 hex digits of milliseconds, 4 of a counter, the node.
 */
export const MAX_AHEAD_MS = 60_000;

interface State {
  /** the node's wall clock in ms (createServer registers its injected clock) */
  now: () => number;
  /** added to now(): the cloud's clock minus this node's, once sync has measured it */
  offsetMs: number;
  ms: number;
  counter: number;
  loaded: boolean;
}

const states = new WeakMap<object, State>();

function stateOf(db: Executor): State {
  const key = (db as Kysely<any>).getExecutor().adapter;
  let s = states.get(key);
  if (!s) states.set(key, (s = { now: Date.now, offsetMs: 0, ms: 0, counter: 0, loaded: false }));
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

/** Whether the last stamp handed out (persisted in node_state) has been read since start. */
export function needsLoad(db: Executor): boolean {
  return !stateOf(db).loaded;
}

/** Takes the stamp persisted by an earlier run, so a restart never reuses a time. */
export function load(db: Executor, persisted: string | null): void {
  const s = stateOf(db);
  s.loaded = true;
  if (persisted) advanceTo(s, parseHlc(persisted));
}

function advanceTo(s: State, t: { ms: number; counter: number }): void {
  if (t.ms > s.ms || (t.ms === s.ms && t.counter > s.counter)) {
    s.ms = t.ms;
    s.counter = t.counter;
  }
}

/** The next stamp for a change made here. */
export function nextHlc(db: Executor, node: string): string {
  const s = stateOf(db);
  const wall = s.now() + s.offsetMs;
  if (wall > s.ms) {
    s.ms = wall;
    s.counter = 0;
  } else if (++s.counter > 0xffff) {
    s.ms++;
    s.counter = 0;
  }
  return formatHlc(s.ms, s.counter, node);
}

/**
 * A change from another node was applied: later local changes must sort after it. A stamp
 * more than MAX_AHEAD_MS ahead of this node's clock (a node whose clock runs fast) is kept
 * on its change, but pulls this node's clock only that far, so one bad clock cannot drag
 * every node's stamps into the future.
 */
export function observeHlc(db: Executor, remote: string): void {
  const s = stateOf(db);
  const t = parseHlc(remote);
  const bound = s.now() + s.offsetMs + MAX_AHEAD_MS;
  advanceTo(s, t.ms > bound ? { ms: bound, counter: 0 } : t);
}

/** The last stamp handed out, to persist. */
export function lastHlc(db: Executor, node: string): string {
  const s = stateOf(db);
  return formatHlc(s.ms, s.counter, node);
}

/** Forgets the clock state so it is read again from node_state (sync re-dated the history). */
export function resetHlc(db: Executor): void {
  const s = stateOf(db);
  s.loaded = false;
  s.ms = 0;
  s.counter = 0;
}
