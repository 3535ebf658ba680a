/**
 * The service tablet's queue of writes made while neither home answered
 * (docs/contributors/two-homes.md, "What is queued where"): kept in IndexedDB so that a reload,
 * a crash or a flat battery loses none, in the order they were made. This module only stores;
 * `outbox-idb.ts` keeps it in the browser, `outbox-drain.ts` decides what to send, `outbox.ts` sends it.
 */
export type HomeName = 'hub' | 'cloud';

/** One line of a round as the API takes it. */
export interface QueuedLine {
  menu_item: string;
  quantity: number;
  modifiers: { group: string; name: string }[];
  notes: string | null;
  seat: number;
  course: number;
  /** what the tablet shows while it waits: "2× Steak (Rare)"; never a price */
  label: string;
}

/** What a waiting write does; the request is made from it when sent (`requestOf`). */
export type QueuedWrite =
  /** a Send: to the table's check, or (order null) opening it, placed, with the round */
  | { kind: 'round'; table: string; tableNumber: number; order: string | null; lines: QueuedLine[]; hold_courses: number[]; covers: number | null }
  | { kind: 'fire'; table: string; tableNumber: number; order: string; course: number }
  /** cash for what the server last said was due; `tendered` as handed over */
  | { kind: 'payment'; table: string; tableNumber: number; order: string; amount: number; tendered: number | null; currency: string };

export interface QueueEntry {
  /** the queue's order (IndexedDB's key, given on add) */
  seq: number;
  /** the Idempotency-Key it was first tried with; a new one only when its body changes (a line refused) */
  key: string;
  /** who made it: sent only under that person's session (a key is the person's on each home) */
  staff: string;
  write: QueuedWrite;
  /**
   * The home it may have reached: set before each attempt, kept when the attempt found no
   * answer. Idempotency keys are each home's own, so it is only ever sent again to that home.
   * null: never tried anywhere.
   */
  reached: HomeName | null;
  /** when queued (ms), to show how long it waits */
  queued: number;
  /** the server's refusal: no longer sent, shown until the person dismisses it */
  refused?: string;
}

export type NewEntry = Omit<QueueEntry, 'seq'>;

/** Where entries are kept: IndexedDB on a tablet (outbox-idb.ts), memory in a unit test. */
export interface QueueStore {
  add(e: NewEntry): Promise<QueueEntry>;
  /** every entry, oldest first */
  all(): Promise<QueueEntry[]>;
  put(e: QueueEntry): Promise<void>;
  remove(seq: number): Promise<void>;
  /**
   * A round that opened a check has been taken: it leaves the queue, and the later rounds of
   * the same table that waited to open it go to that check instead — in one transaction, so a
   * reload between the two cannot open the table twice.
   */
  opened(seq: number, table: string, order: string): Promise<void>;
}

/** The request a waiting write makes, the same on every attempt (an Idempotency-Key replays only the same body). */
export function requestOf(w: QueuedWrite): { path: string; body: Record<string, unknown> } {
  if (w.kind === 'fire') return { path: `/v1/orders/${w.order}/fire`, body: { course: w.course } };
  if (w.kind === 'payment') {
    return { path: `/v1/orders/${w.order}/payments`, body: { method: 'cash', amount: w.amount, tip_amount: 0, ...(w.tendered !== null ? { tendered_amount: w.tendered } : {}) } };
  }
  const items = w.lines.map(({ label: _label, ...line }) => line);
  if (w.order) return { path: `/v1/orders/${w.order}/items`, body: { items, hold_courses: w.hold_courses } };
  return { path: '/v1/orders', body: { type: 'dine_in', table: w.table, items, hold_courses: w.hold_courses, status: 'placed', ...(w.covers ? { covers: w.covers } : {}) } };
}

/** A round that waited for its table's check to open, now sent to that check (others unchanged: null). */
export const reopenTo = (e: QueueEntry, table: string, order: string): QueueEntry | null =>
  e.write.kind === 'round' && e.write.table === table && e.write.order === null ? { ...e, write: { ...e.write, order } } : null;

/** The queue in memory: the unit tests' store, with the same rules. */
export function memoryStore(): QueueStore {
  const rows = new Map<number, QueueEntry>();
  let next = 1;
  const copy = <T>(x: T): T => structuredClone(x);
  return {
    add: async (e) => {
      const row = { ...copy(e), seq: next++ };
      rows.set(row.seq, row);
      return copy(row);
    },
    all: async () => [...rows.values()].sort((a, b) => a.seq - b.seq).map(copy),
    put: async (e) => void rows.set(e.seq, copy(e)),
    remove: async (seq) => void rows.delete(seq),
    opened: async (seq, table, order) => {
      rows.delete(seq);
      for (const e of rows.values()) {
        const moved = reopenTo(e, table, order);
        if (moved) rows.set(e.seq, moved);
      }
    },
  };
}
