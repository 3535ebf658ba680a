import type { Scope } from '../auth/scopes.ts';
import type { GuestOrderView } from './changes.ts';
import type { GuestLimits, GuestTokenResolver } from './guest-tokens.ts';
import type { RowFeed, TopicSources } from './topics.ts';

/**
 * What the live feed of one server can show and to whom, assembled from its features'
 * declarations (server/features/assemble.ts): row feeds by table, notice topics, a verifier per
 * guest token kind, the guest routes' rate budgets and the guests' view of an order.
 */
export interface RealtimeRegistry extends TopicSources {
  feeds: ReadonlyMap<string, RowFeed>;
  noticeTopics: ReadonlyMap<string, Scope>;
  guestTokens: ReadonlyMap<string, GuestTokenResolver>;
  guestLimits: GuestLimits | null;
  guestOrderView: GuestOrderView | null;
}
