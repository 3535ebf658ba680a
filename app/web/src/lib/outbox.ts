import { signal } from '@preact/signals';
import { api, apiAt, ApiFailure } from './api.ts';
import { money } from './format.ts';
import { cloudSignIn, forgetCloudSession, home, onHomeSwitch, type HomeName } from './homes.ts';
import { t } from './i18n.ts';
import { live } from './live.ts';
import { drainPass, type Attempt } from './outbox-drain.ts';
import { indexedDbStore } from './outbox-idb.ts';
import { requestOf, type QueueEntry, type QueuedWrite, type QueueStore } from './outbox-queue.ts';
import { session } from './session.ts';

/**
 * The service page's outbox (docs/contributors/two-homes.md, "What is queued where"): a Send,
 * a Fire or a cash payment made while neither home answers waits in IndexedDB and goes, in
 * order, when one does. Every write carries an Idempotency-Key from its first try on, so a
 * write whose answer was lost is sent again to the same home and done once.
 */

/** Every entry of the queue, refused ones included (the page shows them until dismissed). */
export const queued = signal<QueueEntry[]>([]);
/** What the person should know about writes sent from the queue: sent all, a line refused, a payment that left something due. */
export const notices = signal<{ id: number; text: string }[]>([]);

const DRAIN_EVERY_MS = 2_000;
const OTHER_HOME_MS = 5_000;
let store: QueueStore | null = null;
let draining: Promise<void> | null = null;
let noticeId = 0;
const sentListeners = new Set<(e: QueueEntry, answer: unknown) => void>();

const say = (text: string) => (notices.value = [...notices.value, { id: ++noticeId, text }]);
export const dismissNotice = (id: number) => (notices.value = notices.value.filter((n) => n.id !== id));

/** A random Idempotency-Key (getRandomValues: a hub reached over plain http on the LAN is no secure context, randomUUID is not there). */
const newKey = () => `q_${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

/** A write the queue sent was taken: the page shows the check the server answered. */
export function onQueueSent(fn: (e: QueueEntry, answer: unknown) => void): () => void {
  sentListeners.add(fn);
  return () => sentListeners.delete(fn);
}

const waitingAt = (table: string) => queued.value.some((e) => !e.refused && e.write.table === table);

/** The writes of one table still waiting (refused ones are shown apart). */
export const waitingFor = (table: string) => queued.value.filter((e) => !e.refused && e.write.table === table);

async function refresh(): Promise<void> {
  if (store) queued.value = await store.all();
}

/**
 * Sends a write now when the live line is up and nothing of its table waits ahead of it;
 * otherwise (or when the attempt finds no answer) it joins the queue, and null is returned.
 * A refusal is thrown as from any call.
 */
export async function submit<T>(write: QueuedWrite): Promise<T | null> {
  const staff = session.value?.staff.id;
  if (!store || !staff) throw new ApiFailure(401, 'not_signed_in', 'Sign in first.', null);
  const key = newKey();
  const join = async (reached: QueueEntry['reached']) => {
    await store!.add({ key, staff, write, reached, queued: Date.now() });
    await refresh();
    kick();
    return null;
  };
  if (live.status.value === 'offline' || waitingAt(write.table)) return join(null);
  const from = home.value;
  const { path, body } = requestOf(write);
  try {
    return await api<T>('POST', path, body, undefined, { 'Idempotency-Key': key });
  } catch (e) {
    // no answer: it may have arrived, so it goes again only to this home, with this key
    if (e instanceof ApiFailure && e.code === 'network') return join(from);
    throw e;
  }
}

/** A refused write leaves the queue when the person has read why. */
export async function dismissRefused(seq: number): Promise<void> {
  await store?.remove(seq);
  await refresh();
}

const send = async (path: string, body: unknown, key: string, to: HomeName): Promise<Attempt> => {
  try {
    return { ok: true, answer: await apiAt(to, 'POST', path, body, undefined, { 'Idempotency-Key': key }) };
  } catch (e) {
    if (!(e instanceof ApiFailure) || e.code === 'network') return { ok: false, refusal: null };
    return { ok: false, refusal: { status: e.status, code: e.code, message: e.message, param: e.param } };
  }
};

const probe = () => api('GET', '/v1/homes').then(() => true, () => false);

/** Who this tablet is signed in as at the other home (the cloud: by the session its pass opened there). */
async function elsewhere(h: HomeName): Promise<string | null> {
  try {
    // a silent line must not hold up the writes the current home takes
    const late = new Promise<null>((resolve) => window.setTimeout(() => resolve(null), OTHER_HOME_MS));
    const ask = async () => {
      if (h === 'cloud' && !(await cloudSignIn())) return null;
      return (await apiAt<{ staff: { id: string } }>(h, 'GET', '/v1/auth/session')).staff.id;
    };
    return await Promise.race([ask(), late]);
  } catch (e) {
    // a session the cloud no longer knows: the next try trades a new pass
    if (h === 'cloud' && e instanceof ApiFailure && e.status === 401) forgetCloudSession();
    return null;
  }
}

/** Cash taken offline for what was due then: when the check still shows money due, say so. */
async function afterPayment(e: QueueEntry): Promise<void> {
  if (e.write.kind !== 'payment') return;
  const w = e.write;
  const order = await api<{ amount_due: number; currency: string }>('GET', `/v1/orders/${w.order}`).catch(() => null);
  if (order && order.amount_due !== 0) say(t('service.queue.paymentDiffers', { amount: money(w.amount, w.currency), n: w.tableNumber, due: money(order.amount_due, order.currency) }));
}

function kick(): void {
  if (draining || !store) return;
  const pass = async () => {
    const r = await drainPass({
      store: store!,
      staff: session.value?.staff.id ?? null,
      home: () => home.value,
      probe,
      send,
      elsewhere,
      newKey,
      onSent: async (e, answer) => {
        await refresh();
        for (const l of sentListeners) l(e, answer);
        await afterPayment(e);
      },
      onLineRefused: (e, label, message) => say(t('service.queue.lineRefused', { line: label, n: e.write.tableNumber, reason: message })),
    });
    await refresh();
    if (r.sent && !r.waiting) say(t('service.queue.allSent'));
  };
  // one tablet, one sender: two tabs draining at once would send each write twice (replayed, but still)
  const locked = navigator.locks ? navigator.locks.request('comanda-outbox', pass) : pass();
  draining = locked.then(() => {}, () => {}).finally(() => (draining = null));
}

/** Starts the outbox with the service page: what an earlier page left waiting (a reload, a crash) is sent as soon as a home answers. */
export function startOutbox(): void {
  if (store || typeof indexedDB === 'undefined') return;
  store = indexedDbStore();
  void refresh().then(kick);
  // the line back, another home: try at once; otherwise every couple of seconds while something waits
  live.status.subscribe((s) => s === 'online' && kick());
  onHomeSwitch(() => kick());
  window.setInterval(() => queued.value.some((e) => !e.refused) && kick(), DRAIN_EVERY_MS);
}
