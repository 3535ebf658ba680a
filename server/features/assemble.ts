import { Expandables } from '../http/expand.ts';
import type { Registry } from '../registry.ts';
import type { Feature } from './feature.ts';
import { features as allFeatures } from './index.ts';

/** Only one feature may own a name (a token kind, a feed's table): a second is a mistake, said at once. */
function byName<T>(what: string, entries: [string, T, Feature][]): Map<string, T> {
  const out = new Map<string, T>();
  const owner = new Map<string, string>();
  for (const [name, value, f] of entries) {
    if (owner.has(name)) throw new Error(`${what} '${name}' declared by both ${owner.get(name)} and ${f.name}`);
    owner.set(name, f.name);
    out.set(name, value);
  }
  return out;
}

function single<T>(what: string, list: readonly Feature[], pick: (f: Feature) => T | undefined): T | null {
  const declaring = list.filter((f) => pick(f) !== undefined);
  if (declaring.length > 1) throw new Error(`${what} declared by both ${declaring[0].name} and ${declaring[1].name}`);
  return declaring.length ? pick(declaring[0])! : null;
}

/**
 * The one assembly of a server's registry from its features' declarations, in the features'
 * order (hooks run in it). createServer calls it, and so does every CLI command that writes
 * (`comanda sync link`), so what follows an order is the same whichever process wrote it.
 */
export function assembleRegistry(list: readonly Feature[] = allFeatures): Registry {
  return {
    hooks: {
      orders: list.flatMap((f) => f.orderHooks ?? []),
      events: list.flatMap((f) => f.eventHooks ?? []),
      remoteBatch: list.flatMap((f) => f.remoteBatchHooks ?? []),
    },
    expandables: new Expandables(list.flatMap((f) => Object.entries(f.expandables ?? {}))),
    realtime: {
      feeds: byName('realtime feed of table', list.flatMap((f) => (f.realtimeFeeds ?? []).map((feed): [string, typeof feed, Feature] => [feed.table, feed, f]))),
      noticeTopics: byName('notice topic', list.flatMap((f) => Object.entries(f.noticeTopics ?? {}).map(([n, s]): [string, typeof s, Feature] => [n, s, f]))),
      guestTokens: byName('guest token kind', list.flatMap((f) => Object.entries(f.guestTokenResolvers ?? {}).map(([n, r]): [string, typeof r, Feature] => [n, r, f]))),
      guestLimits: single('guest socket limits', list, (f) => f.guestSocketLimits),
      guestOrderView: single('guest order view', list, (f) => f.guestOrderView),
    },
  };
}
