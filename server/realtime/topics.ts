import type { Scope } from '../auth/scopes.ts';

/**
 * What a screen can follow. `orders` every order of the restaurant; `station:<key>` the orders
 * with lines for that station, showing only those lines; `order:<id>` one order;
 * `reservations`, `waitlist` every row of those; `waitlist_entry:<id>` one waitlist entry.
 */
export type Topic =
  | { name: string; kind: 'orders' }
  | { name: string; kind: 'station'; station: string }
  | { name: string; kind: 'order'; id: string }
  | { name: string; kind: 'collection'; feed: RowFeed }
  | { name: string; kind: 'entry'; feed: RowFeed; id: string }
  | { name: string; kind: 'notices'; scope: Scope };

/**
 * A table shown as is (one message per change-log entry) rather than assembled like orders.
 * A feature declares it (`realtimeFeeds`) with `present`, its presenter (row of the change log
 * → API JSON), so live messages carry the same objects as the API and the events.
 */
export interface RowFeed {
  table: string;
  /** message type; deletes are sent as `<type>.deleted` */
  type: string;
  /** topic that follows every row of the restaurant */
  collection: string;
  /** prefix of the topic that follows one row (`<entry>:<id>`), when guests or staff may follow one */
  entry: string | null;
  scope: Scope;
  /** undefined: this row is not shown on the feed */
  present(row: Record<string, unknown>): unknown;
  /** what a guest token is sent instead of `present` (only what the public pages show); without it, `present` */
  presentGuest?(row: Record<string, unknown>): unknown;
}

/**
 * What a server's topics can name, from its registry: its row feeds by table, and its topics of
 * local bookkeeping outside the change log (print jobs, printer status), whose messages carry
 * no seq and are not replayed (a view loads its state again when it (re)follows one), each
 * named with the scope a staff key needs to follow it.
 */
export interface TopicSources {
  feeds: ReadonlyMap<string, RowFeed>;
  noticeTopics: ReadonlyMap<string, Scope>;
}

export const ORDER_TABLES = new Set(['orders', 'order_items']);

/** Parses a topic name; null when it names nothing. */
export function parseTopic(name: string, sources: TopicSources): Topic | null {
  if (name === 'orders') return { name, kind: 'orders' };
  const colon = name.indexOf(':');
  const head = colon < 0 ? name : name.slice(0, colon);
  const arg = colon < 0 ? null : name.slice(colon + 1);
  if (arg !== null && (arg.length === 0 || arg.length > 200)) return null;
  if (head === 'station' && arg) return { name, kind: 'station', station: arg };
  const noticeScope = sources.noticeTopics.get(name);
  if (noticeScope) return { name, kind: 'notices', scope: noticeScope };
  if (head === 'order' && arg) return { name, kind: 'order', id: arg };
  for (const feed of sources.feeds.values()) {
    if (arg === null && head === feed.collection) return { name, kind: 'collection', feed };
    if (arg && head === feed.entry) return { name, kind: 'entry', feed, id: arg };
  }
  return null;
}

/** The scope a staff key needs to follow a topic. */
export function scopeOf(topic: Topic): Scope {
  if (topic.kind === 'notices') return topic.scope;
  return topic.kind === 'collection' || topic.kind === 'entry' ? topic.feed.scope : 'orders:read';
}
