import { reopenTo, requestOf, type HomeName, type QueueEntry, type QueueStore } from './outbox-queue.ts';

/** A server's refusal as the API's error shape gives it. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  param: string | null;
}

/** One attempt at sending: the answer, no answer at all, or a refusal. */
export type Attempt = { ok: true; answer: unknown } | { ok: false; refusal: Refusal | null };

export interface DrainDeps {
  store: QueueStore;
  /** who is signed in now (null: nobody, nothing is sent) */
  staff: string | null;
  /** where requests go now: read after the probe, which may have moved the device */
  home: () => HomeName;
  /** whether the current home answers (a cheap read), asked before the first write of a pass */
  probe: () => Promise<boolean>;
  /** a POST with the Idempotency-Key to that home; `refusal: null` is no answer (the write may or may not have arrived) */
  send: (path: string, body: unknown, key: string, to: HomeName) => Promise<Attempt>;
  /**
   * Who this device is signed in as at the other home, if it answers now (null: no answer, or
   * nobody): a write that may have reached that home is settled there, under the same person.
   */
  elsewhere: (h: HomeName) => Promise<string | null>;
  newKey: () => string;
  /** the server took a write; `answer` is what it said (the check, or the payment) */
  onSent: (e: QueueEntry, answer: unknown) => void | Promise<void>;
  /** the server refused one line of a round (sold out meanwhile): the rest goes without it */
  onLineRefused: (e: QueueEntry, label: string, message: string) => void;
}

export interface PassResult {
  sent: number;
  /** entries still to send (refused ones not counted) */
  waiting: number;
  /** the home did not answer: the next pass comes later */
  offline: boolean;
}

/**
 * Refusals that say "not now" rather than "no": the write waits and is tried again. A 404 is
 * one: a check made on the hub just before it died may not have reached the cloud yet.
 */
const notNow = (f: Refusal) => f.status >= 500 || f.status === 401 || f.status === 404 || f.status === 429 || f.code === 'idempotency_key_in_use';
/**
 * An answer that says the home did nothing with the key (a refused request keeps no claim): the
 * write may go to either home again. Not a 401 or a 429: those are said before the key is
 * looked at, so an earlier attempt that got no answer may still have done the write there.
 */
const untouched = (f: Refusal) => f.status < 500 && f.status !== 401 && f.status !== 429 && f.code !== 'idempotency_key_in_use';

/** The line a round's refusal names (a dish 86'd meanwhile: `items[i]`), when the round has others to send. */
function refusedLine(e: QueueEntry, f: Refusal): number | null {
  if (e.write.kind !== 'round' || f.code !== 'menu_item_unavailable' || e.write.lines.length < 2) return null;
  const at = /^items\[(\d+)\]/.exec(f.param ?? '');
  const i = at ? Number(at[1]) : -1;
  return i >= 0 && i < e.write.lines.length ? i : null;
}

/**
 * One pass over the queue, oldest first. Each table's writes go in the order they were made:
 * a write that cannot go now (no answer, another person's, tied to the other home) holds back
 * the later writes of its table, not those of other tables. Before each attempt the entry
 * records the home it is sent to, so after no answer (or a reload) it is only ever sent again
 * there, with the same key: the home either did it and replays its answer, or does it now.
 */
export async function drainPass(d: DrainDeps): Promise<PassResult> {
  let sent = 0;
  let offline = false;
  let probed = false;
  const held = new Set<string>();
  // the other home, asked once a pass: whether it answers, signed in as this person
  const other = new Map<HomeName, Promise<boolean>>();
  const reachable = (h: HomeName) => other.get(h) ?? other.set(h, d.elsewhere(h).then((s) => s !== null && s === d.staff, () => false)).get(h)!;
  let list = d.staff === null ? [] : await d.store.all();
  for (let i = 0; i < list.length && !offline; i++) {
    let e = list[i];
    const table = e.write.table;
    if (e.refused) continue;
    if (held.has(table) || e.staff !== d.staff) {
      held.add(table);
      continue;
    }
    if (!probed) {
      probed = true;
      if (!(await d.probe())) {
        offline = true;
        break;
      }
    }
    // a write that may have reached the other home is sent only there, with its key: that home
    // did it and replays its answer, or does it now (the device came back to the hub before
    // the cloud's answer came back); while that home does not answer it waits, and its table with it
    let at = d.home();
    if (e.reached && e.reached !== at) {
      if (!(await reachable(e.reached))) {
        held.add(table);
        continue;
      }
      at = e.reached;
    }
    const here = at === d.home();
    for (;;) {
      e = { ...e, reached: at };
      await d.store.put(e);
      const { path, body } = requestOf(e.write);
      const r = await d.send(path, body, e.key, at);
      if (r.ok) {
        const id = (r.answer as { id?: string } | null)?.id;
        if (e.write.kind === 'round' && e.write.order === null && id) {
          await d.store.opened(e.seq, table, id);
          list = list.map((x) => reopenTo(x, table, id) ?? x);
        } else {
          await d.store.remove(e.seq);
        }
        sent++;
        await d.onSent(e, r.answer);
        break;
      }
      if (r.refusal === null) {
        // the other home fell silent: its writes wait, this home's go on
        if (here) offline = true;
        else held.add(table);
        break;
      }
      if (notNow(r.refusal)) {
        if (untouched(r.refusal)) await d.store.put({ ...e, reached: null });
        held.add(table);
        break;
      }
      const line = refusedLine(e, r.refusal);
      if (line !== null && e.write.kind === 'round') {
        d.onLineRefused(e, e.write.lines[line].label, r.refusal.message);
        // a new body takes a new key; the refused attempt wrote nothing anywhere
        e = { ...e, key: d.newKey(), reached: null, write: { ...e.write, lines: e.write.lines.filter((_, j) => j !== line) } };
        continue;
      }
      // refused whole: it stays in the queue, marked with the server's reason, until dismissed
      await d.store.put({ ...e, refused: r.refusal.message });
      break;
    }
  }
  const waiting = (await d.store.all()).filter((x) => !x.refused).length;
  return { sent, waiting, offline };
}
