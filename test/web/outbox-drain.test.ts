import { describe, expect, it } from 'vitest';
import { drainPass, type Attempt, type DrainDeps } from '../../app/web/src/lib/outbox-drain.ts';
import { memoryStore, type HomeName, type NewEntry, type QueuedWrite } from '../../app/web/src/lib/outbox-queue.ts';

/**
 * The service tablet's outbox (two-homes.md, "What is queued where"): what one pass sends,
 * where, with which key, and what it holds back. The homes are a script here; the browser test
 * (test/service/offline-queue.browser.test.ts) does it against a real hub.
 */
const line = (label: string) => ({ menu_item: 'itm_1', quantity: 1, modifiers: [], notes: null, seat: 1, course: 1, label });
const round = (table: string, order: string | null, ...labels: string[]): QueuedWrite => ({ kind: 'round', table, tableNumber: 1, order, lines: labels.map(line), hold_courses: [], covers: null });
const cash = (table: string, order: string, amount: number): QueuedWrite => ({ kind: 'payment', table, tableNumber: 1, order, amount, tendered: null, currency: 'eur' });
const entry = (write: QueuedWrite, key: string, over: Partial<NewEntry> = {}): NewEntry => ({ key, staff: 'stf_mia', write, reached: null, queued: 0, ...over });

interface Sent {
  home: HomeName;
  path: string;
  body: any;
  key: string;
}

function homes(opts: { home?: HomeName; answers?: (s: Sent) => Attempt; probe?: boolean; elsewhere?: (h: HomeName) => string | null } = {}) {
  const store = memoryStore();
  const sent: Sent[] = [];
  const refusedLines: string[] = [];
  let keys = 0;
  let at: HomeName = opts.home ?? 'hub';
  const deps: DrainDeps = {
    store,
    staff: 'stf_mia',
    home: () => at,
    probe: async () => opts.probe ?? true,
    elsewhere: async (h) => opts.elsewhere?.(h) ?? null,
    send: async (path, body, key, to) => {
      const s = { home: to, path, body, key };
      sent.push(s);
      return opts.answers?.(s) ?? { ok: true, answer: { id: path === '/v1/orders' ? 'ord_new' : 'x' } };
    },
    newKey: () => `k_new${++keys}`,
    onSent: () => {},
    onLineRefused: (_e, label) => refusedLines.push(label),
  };
  return { store, sent, refusedLines, deps, moveTo: (h: HomeName) => (at = h) };
}

describe("the service tablet's outbox", () => {
  it('sends in the order made, each with its first key; a round after one that opens the table goes to the check it opened', async () => {
    const h = homes();
    await h.store.add(entry(round('tbl_1', null, 'Steak'), 'k1'));
    await h.store.add(entry(round('tbl_1', null, 'Soup'), 'k2'));
    await h.store.add(entry(cash('tbl_2', 'ord_2', 1200), 'k3'));
    const r = await drainPass(h.deps);
    expect(r).toEqual({ sent: 3, waiting: 0, offline: false });
    expect(h.sent.map((s) => [s.path, s.key])).toEqual([
      ['/v1/orders', 'k1'],
      ['/v1/orders/ord_new/items', 'k2'],
      ['/v1/orders/ord_2/payments', 'k3'],
    ]);
    expect(h.sent[2].body).toEqual({ method: 'cash', amount: 1200, tip_amount: 0 });
    expect(await h.store.all()).toEqual([]);
  });

  it('sends nothing while the home does not answer, and leaves the writes free to go to either home', async () => {
    const h = homes({ probe: false });
    await h.store.add(entry(round('tbl_1', 'ord_1', 'Steak'), 'k1'));
    expect(await drainPass(h.deps)).toEqual({ sent: 0, waiting: 1, offline: true });
    expect(h.sent).toEqual([]);
    expect((await h.store.all())[0].reached).toBe(null);
  });

  it('keeps a write that got no answer for the home it was sent to, and sends it there again with the same key', async () => {
    let answer = false;
    const h = homes({ answers: () => (answer ? { ok: true, answer: { id: 'ord_1' } } : { ok: false, refusal: null }) });
    await h.store.add(entry(round('tbl_1', 'ord_1', 'Steak'), 'k1'));
    await h.store.add(entry(round('tbl_2', 'ord_2', 'Soup'), 'k2'));
    expect(await drainPass(h.deps)).toMatchObject({ sent: 0, waiting: 2, offline: true });
    expect((await h.store.all()).map((e) => e.reached)).toEqual(['hub', null]);

    // the device moved to the cloud: the hub's write waits for the hub, the other table goes
    h.moveTo('cloud');
    answer = true;
    expect(await drainPass(h.deps)).toMatchObject({ sent: 1, waiting: 1 });
    expect(h.sent.at(-1)).toMatchObject({ home: 'cloud', key: 'k2' });
    expect((await h.store.all()).map((e) => e.key)).toEqual(['k1']);

    h.moveTo('hub');
    expect(await drainPass(h.deps)).toMatchObject({ sent: 1, waiting: 0 });
    expect(h.sent.filter((s) => s.key === 'k1').map((s) => s.home)).toEqual(['hub', 'hub']);
  });

  it("holds a table's later writes behind one that cannot go, and another person's writes for them", async () => {
    const h = homes({ home: 'cloud' });
    await h.store.add(entry(round('tbl_1', 'ord_1', 'Steak'), 'k1', { reached: 'hub' }));
    await h.store.add(entry(cash('tbl_1', 'ord_1', 900), 'k2'));
    await h.store.add(entry(round('tbl_2', 'ord_2', 'Soup'), 'k3', { staff: 'stf_sam' }));
    expect(await drainPass(h.deps)).toMatchObject({ sent: 0, waiting: 3 });
    expect(h.sent).toEqual([]);
  });

  it('sends a round again without a line the server refused, under a new key; a refused write stays marked and holds nothing back', async () => {
    const h = homes({
      answers: (s) => {
        if (s.path.endsWith('/payments')) return { ok: false, refusal: { status: 422, code: 'payment_exceeds_due', message: 'More than is due.', param: 'amount' } };
        if (s.body.items?.length === 2) return { ok: false, refusal: { status: 409, code: 'menu_item_unavailable', message: 'Sold out.', param: 'items[0].menu_item' } };
        return { ok: true, answer: { id: 'ord_1' } };
      },
    });
    await h.store.add(entry(round('tbl_1', 'ord_1', 'Steak', 'Soup'), 'k1'));
    await h.store.add(entry(cash('tbl_1', 'ord_1', 5000), 'k2'));
    await h.store.add(entry(round('tbl_1', 'ord_1', 'Cake'), 'k3'));
    expect(await drainPass(h.deps)).toMatchObject({ sent: 2, waiting: 0 });
    expect(h.refusedLines).toEqual(['Steak']);
    expect(h.sent.map((s) => s.key)).toEqual(['k1', 'k_new1', 'k2', 'k3']);
    expect(h.sent[1].body.items.map((x: { label?: string }) => x.label)).toEqual([undefined]);
    const left = await h.store.all();
    expect(left.map((e) => [e.key, e.refused])).toEqual([['k2', 'More than is due.']]);
  });

  it('tries again later, with the same key, what the server could not take now', async () => {
    let busy = true;
    const h = homes({ answers: () => (busy ? { ok: false, refusal: { status: 409, code: 'idempotency_key_in_use', message: 'Retry shortly.', param: null } } : { ok: true, answer: {} }) });
    await h.store.add(entry(round('tbl_1', 'ord_1', 'Steak'), 'k1'));
    expect(await drainPass(h.deps)).toMatchObject({ sent: 0, waiting: 1, offline: false });
    busy = false;
    expect(await drainPass(h.deps)).toMatchObject({ sent: 1, waiting: 0 });
    expect(h.sent.map((s) => s.key)).toEqual(['k1', 'k1']);
  });
  it('waits on a check the cloud does not know yet (404) and, since the cloud did nothing with it, may send it to the hub later', async () => {
    const h = homes({ home: 'cloud', answers: (s) => (s.home === 'cloud' ? { ok: false, refusal: { status: 404, code: 'resource_missing', message: 'No such order.', param: null } } : { ok: true, answer: {} }) });
    await h.store.add(entry(round('tbl_1', 'ord_1', 'Steak'), 'k1'));
    expect(await drainPass(h.deps)).toMatchObject({ sent: 0, waiting: 1, offline: false });
    expect((await h.store.all()).map((e) => [e.reached, e.refused ?? null])).toEqual([[null, null]]);
    h.moveTo('hub');
    expect(await drainPass(h.deps)).toMatchObject({ sent: 1, waiting: 0 });
    expect(h.sent.map((s) => [s.home, s.key])).toEqual([['cloud', 'k1'], ['hub', 'k1']]);
  });

  it('back on the hub, settles at the cloud a write whose answer the cloud lost, with its key, once; the table waits for it while the cloud is silent', async () => {
    // the cloud as a server: a key it has seen replays its first answer
    const applied: string[] = [];
    let lose = true;
    let cloud: string | null = null;
    const h = homes({
      home: 'cloud',
      elsewhere: (to) => (to === 'cloud' ? cloud : null),
      answers: (x) => {
        const seen = applied.includes(`${x.home}:${x.key}`);
        if (!seen) applied.push(`${x.home}:${x.key}`);
        if (x.home === 'cloud' && lose) return { ok: false, refusal: null };
        return { ok: true, answer: { id: 'ord_1' } };
      },
    });
    await h.store.add(entry(round('tbl_1', 'ord_1', 'Steak'), 'k1'));
    expect(await drainPass(h.deps)).toMatchObject({ sent: 0, waiting: 1, offline: true });

    // the cloud's answer was lost, the device went back to the hub; a later round at the same
    // table and one at another table are made there
    h.moveTo('hub');
    lose = false;
    await h.store.add(entry(round('tbl_1', 'ord_1', 'Soup'), 'k2'));
    await h.store.add(entry(round('tbl_2', 'ord_2', 'Cake'), 'k3'));
    expect(await drainPass(h.deps)).toMatchObject({ sent: 1, waiting: 2, offline: false });
    expect(h.sent.map((x) => [x.home, x.key])).toEqual([['cloud', 'k1'], ['hub', 'k3']]);

    // the cloud answers, but signed in as someone else: not under another person's key
    cloud = 'stf_sam';
    expect(await drainPass(h.deps)).toMatchObject({ sent: 0, waiting: 2 });

    // the cloud answers as Mia: the write goes there again with its key (the cloud replays it), then the table's next round to the hub
    cloud = 'stf_mia';
    expect(await drainPass(h.deps)).toMatchObject({ sent: 2, waiting: 0 });
    expect(h.sent.slice(2).map((x) => [x.home, x.key])).toEqual([['cloud', 'k1'], ['hub', 'k2']]);
    expect(applied).toEqual(['cloud:k1', 'hub:k3', 'hub:k2']);
  });

  it('keeps a write tied to the home that got it without an answer when that home then refuses before looking at the key (401, 429)', async () => {
    let n = 0;
    const h = homes({
      answers: () => {
        n++;
        if (n === 1) return { ok: false, refusal: null };
        return { ok: false, refusal: { status: n === 2 ? 401 : 429, code: n === 2 ? 'not_signed_in' : 'rate_limited', message: 'Not now.', param: null } };
      },
    });
    await h.store.add(entry(round('tbl_1', 'ord_1', 'Steak'), 'k1'));
    await drainPass(h.deps);
    await drainPass(h.deps);
    await drainPass(h.deps);
    expect(h.sent.map((x) => x.key)).toEqual(['k1', 'k1', 'k1']);
    expect((await h.store.all()).map((e) => e.reached)).toEqual(['hub']);
  });
});
