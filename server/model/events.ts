/**
 * Every event type the service emits: the one list. `emitEvent` takes only these, webhook
 * endpoints subscribe to these (or a pattern of them), `GET /v1/events?type=` filters by
 * them, and the OpenAPI document has one `webhooks` entry per type with its payload
 * (presenters/webhook-events.ts). A new type is added here first.
 */
export const EVENT_TYPES = [
  'order.created',
  'order.updated',
  'order.completed',
  'order.cancelled',
  'order.paid',
  // service at the table (domain/orders/service.ts, merge-checks.ts)
  'order.course_fired',
  'order.item_voided',
  'order.discounted',
  'order.transferred',
  'order.items_moved',
  'order.merged',
  'payment.succeeded',
  'payment.refunded',
  'reservation.created',
  'reservation.updated',
  'reservation.cancelled',
  'reservation.no_show',
  'waitlist.joined',
  'waitlist.notified',
  'waitlist.seated',
  'waitlist.cancelled',
  'waitlist.expired',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** `order.*`, `payment.*`, …: every type of one resource. */
export const EVENT_PREFIXES = [...new Set(EVENT_TYPES.map((t) => `${t.slice(0, t.indexOf('.'))}.*`))];

/** What an endpoint's `enabled_events` and the events list's `type` take: a type, `*` (every type) or a prefix. */
export const EVENT_PATTERNS = ['*', ...EVENT_PREFIXES, ...EVENT_TYPES] as const;

const KNOWN = new Set<string>(EVENT_PATTERNS);
export const isEventPattern = (s: string): boolean => KNOWN.has(s);

/** Whether a type is one the patterns name. */
export function eventMatches(patterns: readonly string[], type: string): boolean {
  for (const p of patterns) {
    if (p === '*' || p === type) return true;
    if (p.endsWith('.*') && type.startsWith(p.slice(0, -1))) return true;
  }
  return false;
}

/** The message of a refused pattern: what there is to choose from. */
export const unknownEventMessage = (given: string) =>
  `'${given.slice(0, 100)}' is not an event type. Known types: ${EVENT_TYPES.join(', ')}; or * for every type, or a prefix such as ${EVENT_PREFIXES.join(', ')}.`;
