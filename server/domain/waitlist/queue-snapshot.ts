import { timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../db/records.ts';
import type { RecordTable } from '../../db/schema.ts';
import { perDatabase } from '../../db/versioned-cache.ts';
import { versionsOf } from '../../db/versions.ts';
import { readSettings, type Settings } from '../../model/settings.ts';
import { formerSlugsOf, restaurantBySlugOrFormer } from '../restaurants/slugs.ts';
import { ACTIVE } from './entries.ts';
import { estimateWaitMinutes, PACE_SAMPLE, PACE_WINDOW_SECONDS, paceOf } from './estimate.ts';
import { isOpenAt } from './open-now.ts';
import { signEntryToken } from './token.ts';
import type { WaitlistEntryRow } from '../../db/tables/waitlist-entries.table.ts';
import type { RestaurantRow } from '../../db/tables/restaurants.table.ts';

/** What a snapshot is made of: its version is the last change of these tables. */
const TABLES: readonly RecordTable[] = ['restaurants', 'waitlist_entries'];

/** A place in the queue: where an active party stands. */
export interface Standing {
  position: number | null;
  partiesAhead: number | null;
  estimatedWaitMinutes: number | null;
}

const OUT_OF_QUEUE: Standing = { position: null, partiesAhead: null, estimatedWaitMinutes: null };

/** One mode's queue (live or sandbox): its active parties and its recent seatings. */
interface ModeQueue {
  /** entry id → parties ahead of it (active entries, oldest first, the id breaking ties) */
  ahead: Map<string, number>;
  /** seating times at or after the snapshot's `seatedFrom`, latest first */
  seatings: number[];
}

/** An entry as a snapshot holds it, with the token that names it. */
interface HeldEntry {
  row: WaitlistEntryRow;
  token: Buffer;
}

/**
 * Everything the guest waitlist pages of one restaurant are computed from, at one version
 * of its restaurant row and waitlist entries: the same rows the four queries of
 * `queueSummary` / `standing` (entries.ts) read, held so that a polling guest costs a
 * version read and some arithmetic. Only the clock is left to the request: estimates
 * depend on the second (the time since the latest seating) and opening hours on the minute,
 * so they are computed from the held rows at the request's own time, exactly as the queries
 * would. Answers made from them are kept as bytes per distinct result.
 */
export class QueueSnapshot {
  readonly settings: Settings;
  private readonly queues: [ModeQueue, ModeQueue];
  private readonly entries = new Map<string, HeldEntry>();
  private open: { utcMinute: number; open: boolean } | undefined;
  private readonly answers = new Map<string, { key: string; bytes: Buffer }>();

  constructor(
    readonly restaurant: RestaurantRow,
    active: WaitlistEntryRow[],
    seated: { livemode: number; seated_at: number }[],
    /** seatings before this (Unix seconds) were not read: the snapshot serves no time whose window starts earlier */
    readonly seatedFrom: number,
  ) {
    this.settings = readSettings(restaurant);
    const queue = (livemode: number): ModeQueue => {
      const mine = active.filter((e) => e.livemode === livemode);
      mine.sort((a, b) => Number(a.created) - Number(b.created) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return {
        ahead: new Map(mine.map((e, i) => [e.id, i])),
        seatings: seated
          .filter((s) => s.livemode === livemode)
          .map((s) => Number(s.seated_at))
          .sort((a, b) => b - a),
      };
    };
    this.queues = [queue(0), queue(1)];
    for (const e of active) this.hold(e);
  }

  /** Whether the snapshot can answer for `nowMs`: its seatings cover the pace window then. */
  covers(nowMs: number): boolean {
    return Math.floor(nowMs / 1000) - PACE_WINDOW_SECONDS >= this.seatedFrom;
  }

  hold(row: WaitlistEntryRow): HeldEntry {
    const held = this.unheld(row);
    this.entries.set(row.id, held);
    return held;
  }

  /** An entry with its token, not kept. */
  unheld(row: WaitlistEntryRow): HeldEntry {
    return { row, token: Buffer.from(signEntryToken(row.id, this.restaurant.guest_secret), 'utf8') };
  }

  held(id: string): HeldEntry | undefined {
    return this.entries.get(id);
  }

  /** The token check of verifyEntryToken (constant time), against the token made once per entry. */
  static tokenMatches(held: HeldEntry, token: string): boolean {
    const given = Buffer.from(token, 'utf8');
    return given.length === held.token.length && timingSafeEqual(given, held.token);
  }

  /** The seating pace of one queue at `nowSec`, from the times the pace query would select. */
  private pace(livemode: number, nowSec: number) {
    const times: number[] = [];
    for (const t of this.queues[livemode === 1 ? 1 : 0].seatings) {
      if (t > nowSec) continue;
      if (t < nowSec - PACE_WINDOW_SECONDS || times.length === PACE_SAMPLE) break;
      times.push(t);
    }
    return paceOf(times, nowSec, this.settings.waitlist.default_wait_minutes_per_party);
  }

  /**
   * As `standing` (entries.ts) answers for this entry at `nowMs`; undefined for an active
   * entry that is not in this snapshot's queue (read after it: ask the database instead).
   */
  standing(entry: WaitlistEntryRow, nowMs: number): Standing | undefined {
    if (!ACTIVE.includes(entry.status)) return OUT_OF_QUEUE;
    const partiesAhead = this.queues[entry.livemode === 1 ? 1 : 0].ahead.get(entry.id);
    if (partiesAhead === undefined) return undefined;
    if (entry.status === 'notified') return { position: partiesAhead + 1, partiesAhead, estimatedWaitMinutes: 0 };
    const pace = this.pace(entry.livemode, Math.floor(nowMs / 1000));
    return { position: partiesAhead + 1, partiesAhead, estimatedWaitMinutes: estimateWaitMinutes(partiesAhead, pace) };
  }

  /** As `queueSummary` (entries.ts) answers at `nowMs`: the live queue, the one guests join. */
  summary(nowMs: number): { waitingParties: number; estimatedWaitMinutes: number } {
    const waiting = this.queues[1].ahead.size;
    return { waitingParties: waiting, estimatedWaitMinutes: estimateWaitMinutes(waiting, this.pace(1, Math.floor(nowMs / 1000))) };
  }

  /** isOpenAt at `nowMs`; it reads the wall clock to the minute, and offsets change on whole minutes only (wall-clock.ts). */
  isOpen(nowMs: number): boolean {
    const utcMinute = Math.floor(nowMs / 60_000);
    if (this.open?.utcMinute !== utcMinute) this.open = { utcMinute, open: isOpenAt(this.settings, nowMs) };
    return this.open.open;
  }

  /**
   * An answer as JSON bytes, remembered per `slot` (a page, an entry) while `key` (what
   * varies with the clock) stays the same; `make` builds the value otherwise.
   */
  bytes(slot: string, key: string, make: () => unknown): Buffer {
    const hit = this.answers.get(slot);
    if (hit?.key === key) return hit.bytes;
    const bytes = Buffer.from(JSON.stringify(make()));
    this.answers.set(slot, { key, bytes });
    return bytes;
  }
}

/** Remembered slugs and entries: which restaurant to look in. Facts that can change are checked against the snapshot. */
class Hints {
  private readonly map = new Map<string, string>();
  constructor(private readonly max: number) {}
  get(key: string) {
    return this.map.get(key);
  }
  set(key: string, restaurantId: string) {
    this.map.delete(key);
    this.map.set(key, restaurantId);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  delete(key: string) {
    this.map.delete(key);
  }
}

const snapshots = perDatabase<QueueSnapshot>(1024);
const hintsOf = new WeakMap<object, { slugs: Hints; entries: Hints }>();

function hints(db: Executor) {
  const versions = versionsOf(db);
  let h = hintsOf.get(versions);
  if (!h) hintsOf.set(versions, (h = { slugs: new Hints(1024), entries: new Hints(100_000) }));
  return h;
}

/** Reads one restaurant's snapshot; undefined when the restaurant does not exist. */
async function load(db: Executor, restaurantId: string, nowMs: number): Promise<QueueSnapshot | undefined> {
  const restaurant = await db.selectFrom('restaurants').selectAll().where('id', '=', restaurantId).executeTakeFirst();
  if (!restaurant) return undefined;
  const active = await db.selectFrom('waitlist_entries').selectAll().where('restaurant_id', '=', restaurantId).where('status', 'in', ACTIVE).execute();
  // Every seating a pace window from now on could hold: the window's start only moves on,
  // and seatings stamped later than now (another node's clock) wait in the list until due.
  const seatedFrom = Math.floor(nowMs / 1000) - PACE_WINDOW_SECONDS;
  const seated = await db
    .selectFrom('waitlist_entries')
    .select(['livemode', 'seated_at'])
    .where('restaurant_id', '=', restaurantId)
    .where('seated_at', '>=', seatedFrom)
    .execute();
  return new QueueSnapshot(restaurant, active, seated as { livemode: number; seated_at: number }[], seatedFrom);
}

/**
 * The restaurant's snapshot at its current version (read first, so what is held can only be
 * older than the version it is filed under, and is then replaced on the next request).
 */
export async function queueSnapshot(db: Executor, restaurantId: string, nowMs: number): Promise<QueueSnapshot | undefined> {
  const versions = versionsOf(db);
  const cache = snapshots(versions);
  const version = await versions.of(db, restaurantId, TABLES);
  const hit = cache.get(restaurantId, version);
  if (hit && hit.covers(nowMs)) return hit;
  const made = await load(db, restaurantId, nowMs);
  if (made) cache.set(restaurantId, version, made);
  return made;
}

/**
 * The snapshot of the restaurant a public page names by slug (its slug now or one it had
 * before); undefined for an unknown slug.
 */
export async function snapshotBySlug(db: Executor, slug: string, nowMs: number): Promise<QueueSnapshot | undefined> {
  const { slugs } = hints(db);
  const known = slugs.get(slug);
  if (known) {
    const snap = await queueSnapshot(db, known, nowMs);
    // a slug may have moved to another restaurant since: then look it up again
    if (snap && answersTo(snap.restaurant, slug)) return snap;
    slugs.delete(slug);
  }
  const row = await restaurantBySlugOrFormer(db, slug);
  if (!row) return undefined;
  const snap = await queueSnapshot(db, row.id, nowMs);
  if (!snap || !answersTo(snap.restaurant, slug)) return undefined;
  slugs.set(slug, row.id);
  return snap;
}

const answersTo = (r: { slug: string; former_slugs: string }, slug: string) => r.slug === slug || formerSlugsOf(r).includes(slug);

/**
 * An entry by id with its restaurant's snapshot; undefined when there is no such entry.
 * Entries that are not in the queue (seated, cancelled, expired) are read once per snapshot.
 */
export async function entryWithSnapshot(db: Executor, id: string, nowMs: number): Promise<{ snap: QueueSnapshot; entry: HeldEntry } | undefined> {
  const { entries } = hints(db);
  // an entry never changes restaurant, so where it was found once is where to look
  const known = entries.get(id);
  if (known) {
    const found = await entryIn(db, known, id, nowMs);
    if (found) return found;
    entries.delete(id);
  }
  const row = await db.selectFrom('waitlist_entries').select('restaurant_id').where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const found = await entryIn(db, row.restaurant_id, id, nowMs);
  if (found) entries.set(id, row.restaurant_id);
  return found;
}

async function entryIn(db: Executor, restaurantId: string, id: string, nowMs: number): Promise<{ snap: QueueSnapshot; entry: HeldEntry } | undefined> {
  const snap = await queueSnapshot(db, restaurantId, nowMs);
  if (!snap) return undefined;
  const held = snap.held(id);
  if (held) return { snap, entry: held };
  const row = await db.selectFrom('waitlist_entries').selectAll().where('id', '=', id).where('restaurant_id', '=', restaurantId).executeTakeFirst();
  if (!row) return undefined;
  // Seated, cancelled and expired are final: such a row is the same at every later version.
  // An active one missing from the queue was written after the snapshot was read; it is
  // answered from the database this once, and the next request reads a newer snapshot.
  return { snap, entry: ACTIVE.includes(row.status) ? snap.unheld(row) : snap.hold(row) };
}
