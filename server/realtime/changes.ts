import { presentOrder } from '../presenters/orders.ts';
import type { Executor } from '../db/records.ts';
import { loadItemsFor } from '../domain/orders/load.ts';
import { feedForTable, ORDER_TABLES, type RowFeed, type Topic } from './topics.ts';
import type { OrderItemRow } from '../db/tables/order-items.table.ts';
import type { OrderRow } from '../db/tables/orders.table.ts';
import type { ChangeRow } from '../db/tables/change-log.table.ts';
import { OPEN_STATUSES } from '../model/orders.ts';

const isClosed = (status: string) => status !== 'draft' && !(OPEN_STATUSES as readonly string[]).includes(status);

/**
 * One message to be sent, before it is shaped for a topic. Orders are assembled (the order
 * and all its lines); other tables are shown row by row.
 */
export type Change =
  | {
      kind: 'order';
      seq: number;
      restaurantId: string;
      orderId: string;
      /** the order as it is now; null once deleted */
      order: OrderRow | null;
      /** the run's last row of the order itself, read only if the order is gone by the time it is loaded */
      lastRow: string | null;
      /** the mode of an order gone from the database, from that row (a sandbox key must not hear of a live one) */
      deletedLivemode: boolean | null;
      items: OrderItemRow[];
      /** the order as a guest sees it (GET /public/qr/<token>/orders/<id>); set by prepareGuestViews, live orders only */
      guestView?: unknown;
      /** encoded message per topic name, made once however many screens follow it */
      cache: Map<string, Buffer | null>;
    }
  | {
      kind: 'row';
      seq: number;
      restaurantId: string;
      feed: RowFeed;
      rowId: string;
      op: ChangeRow['op'];
      row: Record<string, unknown>;
      cache: Map<string, Buffer | null>;
    };

/**
 * Turns change-log entries (in seq order) into messages. The entries of one order that follow
 * each other in the restaurant's log (the order row and its lines, written by one command)
 * become a single `order` message carrying the seq of the last of them; any other entry of the
 * restaurant (the command's event, another order) ends that run. Orders are then shown as
 * they are in the database now: at least as new as the seq, which is what a screen wants.
 */
export async function changesFrom(db: Executor, entries: ChangeRow[]): Promise<Change[]> {
  const out: Change[] = [];
  const openRun = new Map<string, Extract<Change, { kind: 'order' }>>();
  for (const e of entries) {
    const restaurantId = e.restaurant_id;
    if (!restaurantId) continue;
    if (ORDER_TABLES.has(e.table_name)) {
      const orderId = e.table_name === 'orders' ? e.row_id : String(JSON.parse(e.data).order_id);
      const run = openRun.get(restaurantId);
      const row = e.table_name === 'orders' ? e.data : null;
      if (run && run.orderId === orderId) {
        run.seq = e.seq;
        if (row !== null) run.lastRow = row;
        continue;
      }
      const change: Change = { kind: 'order', seq: e.seq, restaurantId, orderId, order: null, lastRow: row, deletedLivemode: null, items: [], cache: new Map() };
      out.push(change);
      openRun.set(restaurantId, change);
      continue;
    }
    openRun.delete(restaurantId);
    const feed = feedForTable(e.table_name);
    if (feed) {
      out.push({ kind: 'row', seq: e.seq, restaurantId, feed, rowId: e.row_id, op: e.op, row: JSON.parse(e.data), cache: new Map() });
    }
  }
  await loadOrders(db, out);
  return out;
}

async function loadOrders(db: Executor, changes: Change[]): Promise<void> {
  const ids = [...new Set(changes.flatMap((c) => (c.kind === 'order' ? [c.orderId] : [])))];
  if (ids.length === 0) return;
  const orders = new Map<string, OrderRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('orders').selectAll().where('id', 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) orders.set(r.id, r);
  }
  const items = await loadItemsFor(db, [...orders.keys()]);
  for (const c of changes) {
    if (c.kind !== 'order') continue;
    const order = orders.get(c.orderId);
    // an order is scoped by its own restaurant_id, never by the log's word alone
    if (order && order.restaurant_id === c.restaurantId) {
      c.order = order;
      c.items = items.get(order.id) ?? [];
    } else if (c.lastRow !== null) {
      c.deletedLivemode = Number(JSON.parse(c.lastRow).livemode) === 1;
    }
  }
}

type GuestPresenter = (db: Executor, rows: { order: OrderRow; items: OrderItemRow[] }[]) => Promise<unknown[]>;
let guestPresenter: GuestPresenter | null = null;

/** How a guest's socket shows an order: the guest routes' own projection (realtime/feeds.ts sets it). */
export function setGuestOrderPresenter(present: GuestPresenter): void {
  guestPresenter = present;
}

/** Projects the live orders among `changes` for guests, once per change, before they are handed out. */
export async function prepareGuestViews(db: Executor, changes: Change[]): Promise<void> {
  const todo = changes.filter((c): c is Extract<Change, { kind: 'order' }> => c.kind === 'order' && c.order !== null && Number(c.order.livemode) === 1 && c.guestView === undefined);
  if (todo.length === 0 || !guestPresenter) return;
  const views = await guestPresenter(db, todo.map((c) => ({ order: c.order!, items: c.items })));
  todo.forEach((c, i) => (c.guestView = views[i]));
}

/** Whether a change is meant for a topic (guests and staff alike; scopes are checked on subscribe). */
export function matches(change: Change, topic: Topic): boolean {
  if (change.kind === 'order') {
    if (topic.kind === 'orders') return true;
    if (topic.kind === 'order') return topic.id === change.orderId;
    // a closed order goes to every station too: a merged check's lines have left it (they belong to
    // the check it went into), so its own lines no longer name the stations still showing it
    if (topic.kind === 'station') return change.order !== null && (change.items.some((i) => i.station === topic.station) || isClosed(change.order.status));
    return false;
  }
  if (topic.kind === 'collection') return topic.feed === change.feed;
  if (topic.kind === 'entry') return topic.feed === change.feed && topic.id === change.rowId;
  return false;
}

/** The livemode a change carries, when it carries one (sandbox keys only see sandbox rows). */
export function livemodeOf(change: Change): boolean | null {
  if (change.kind === 'order') return change.order ? change.order.livemode === 1 : change.deletedLivemode;
  const v = change.row.livemode;
  return v === undefined || v === null ? null : v === 1 || v === true;
}

/** Who a message is rendered for: staff (a key or session), a guest's token, or a paired screen. */
export type View = 'staff' | 'guest' | 'screen';

/**
 * The wire form of a change for one topic: `{type, topic, seq, data}` as UTF-8, encoded once
 * and shared by every screen on that topic.
 */
export function render(change: Change, topic: Topic, view: View = 'staff'): Buffer | null {
  const guest = view === 'guest';
  const cacheKey = view === 'staff' ? topic.name : `${view}:${topic.name}`;
  const cached = change.cache.get(cacheKey);
  if (cached !== undefined) return cached;
  let msg: { type: string; topic: string; seq: number; data: unknown } | null;
  if (change.kind === 'order' && guest) {
    // a guest's order: live only, in the guest projection (no contact details, no internal flags)
    if (!change.order) msg = change.deletedLivemode === true ? { type: 'order.deleted', topic: topic.name, seq: change.seq, data: { id: change.orderId, object: 'order', deleted: true } } : null;
    else msg = change.guestView === undefined ? null : { type: 'order', topic: topic.name, seq: change.seq, data: change.guestView };
  } else if (change.kind === 'order') {
    if (!change.order) {
      msg = { type: 'order.deleted', topic: topic.name, seq: change.seq, data: { id: change.orderId, object: 'order', deleted: true } };
    } else {
      const items = topic.kind === 'station' ? change.items.filter((i) => i.station === topic.station) : change.items;
      const order = presentOrder(change.order, items);
      // a paired screen reads no guest contact details, live as over HTTP (http/screen-keys.ts)
      const data = view === 'screen' ? { ...order, customer: { ...order.customer, phone: null, email: null }, delivery_address: null } : order;
      msg = { type: 'order', topic: topic.name, seq: change.seq, data };
    }
  } else {
    const type = change.op === 'delete' ? `${change.feed.type}.deleted` : change.feed.type;
    // a feed may pass over rows that are not its kind (an integration's key on the devices feed)
    const data = guest && change.feed.presentGuest ? change.feed.presentGuest(change.row) : change.feed.present(change.row);
    msg = data === undefined ? null : { type, topic: topic.name, seq: change.seq, data };
  }
  const encoded = msg && Buffer.from(JSON.stringify(msg));
  change.cache.set(cacheKey, encoded);
  return encoded;
}
