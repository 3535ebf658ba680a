import { LINE_TRANSITIONS, ORDER_TYPES } from '../lib/api.gen.ts';
import { OPEN_STATUSES as OPEN_ORDER_STATUSES, refId } from '../lib/types.ts';

/**
 * One model for an order on a screen, whether it came from an HTTP view (camelCase, /public)
 * or a live message (the order as /v1 shows it). Only the lines of the screen's station are kept.
 */
export type LineStatus = keyof typeof LINE_TRANSITIONS;

export interface Line {
  index: number;
  name: string;
  quantity: number;
  modifiers: string[];
  notes: string | null;
  status: LineStatus;
  station: string;
  round: number;
  seat: number | null;
  course: number | null;
  sentAt: number | null;
  /** the staff member who sent the line's round */
  sentBy: string | null;
}

export interface Ticket {
  id: string;
  number: string;
  type: (typeof ORDER_TYPES)[number];
  status: string;
  tableId: string | null;
  tableNumber: number | null;
  customerName: string | null;
  serverId: string | null;
  notes: string | null;
  placedAt: number | null;
  total: number;
  currency: string;
  lines: Line[];
}

/** A line as both shapes carry it; only when it went to the kitchen is named differently. */
const toLine = (i: any, sentAt: number | null | undefined, sentBy: string | null | undefined): Line => ({
  index: i.index,
  name: i.name,
  quantity: i.quantity,
  modifiers: (i.modifiers ?? []).map((m: { name: string }) => m.name),
  notes: i.notes ?? null,
  status: i.status,
  station: i.station,
  round: i.round ?? 1,
  seat: i.seat ?? null,
  course: i.course ?? null,
  sentAt: sentAt ?? null,
  sentBy: sentBy ?? null,
});

/** A station sees a line once it is sent: a held course waits for its fire, a voided line is gone. */
const atStation = (i: any) => !i.held && !(i.voided_at ?? i.voidedAt);

export function fromPublic(o: any): Ticket {
  return {
    id: o.id,
    number: String(o.orderNumber),
    type: o.type,
    status: o.status,
    tableId: o.table ?? null,
    tableNumber: o.tableNumber ?? null,
    customerName: o.customerName ?? null,
    serverId: o.server ?? null,
    notes: o.notes ?? null,
    placedAt: o.placedAt ?? null,
    total: o.total ?? 0,
    currency: o.currency ?? 'eur',
    lines: (o.items ?? []).filter(atStation).map((i: any) => toLine(i, i.sentToKitchenAt, i.sentBy)),
  };
}

export function fromLive(o: any, tableNumbers: Map<string, number>): Ticket {
  const tableId = refId(o.table);
  return {
    id: o.id,
    number: String(o.order_number),
    type: o.type,
    status: o.status,
    tableId,
    tableNumber: tableId ? (tableNumbers.get(tableId) ?? null) : null,
    customerName: o.customer?.name ?? null,
    serverId: refId(o.server),
    notes: o.notes ?? null,
    placedAt: o.placed_at ?? null,
    total: o.total ?? 0,
    currency: o.currency ?? 'eur',
    lines: (o.items ?? []).filter(atStation).map((i: any) => toLine(i, i.sent_to_kitchen_at, i.sent_by)),
  };
}

/**
 * Who the ticket is headed by: the sender of its newest round on this screen (a second server
 * adding to a check sent that round, not the check's opener), else the check's server.
 */
export function senderOf(t: Ticket): string | null {
  let newest: Line | null = null;
  for (const l of t.lines) if (l.sentBy && (!newest || l.round > newest.round || (l.round === newest.round && (l.sentAt ?? 0) > (newest.sentAt ?? 0)))) newest = l;
  return newest?.sentBy ?? t.serverId;
}

export const OPEN_STATUSES: ReadonlySet<string> = new Set(OPEN_ORDER_STATUSES);
export const isOpen = (t: Ticket) => OPEN_STATUSES.has(t.status);

/** On a station's screen: an open order with a line still to cook there. */
export const onKitchen = (t: Ticket) => isOpen(t) && t.lines.some((l) => l.status === 'pending' || l.status === 'preparing');

/**
 * What a tap on a line asks for next: the server's first move from its status (LINE_TRANSITIONS),
 * stopping at ready, since serving is the pass's (expo) and not the station's; null once ready.
 */
export const nextStatus = (s: LineStatus): LineStatus | null => {
  const next: LineStatus | undefined = LINE_TRANSITIONS[s][0];
  return next && next !== 'served' ? next : null;
};

/** The ticket's age counts from the oldest line still to cook (a later round starts its own clock). */
export function startedAt(t: Ticket): number | null {
  const open = t.lines.filter((l) => l.status === 'pending' || l.status === 'preparing');
  const times = open.map((l) => l.sentAt ?? t.placedAt).filter((x): x is number => x !== null);
  return times.length ? Math.min(...times) : t.placedAt;
}

/** The all-day count: how many of each item are still to cook. */
export function allDay(tickets: Ticket[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const t of tickets) for (const l of t.lines) if (l.status === 'pending' || l.status === 'preparing') counts.set(l.name, (counts.get(l.name) ?? 0) + l.quantity);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** Notes that a cook must not miss: allergies and intolerances, in the languages the screens speak. */
export const isAllergyNote = (note: string) =>
  /allerg|intoler|gluten|nut|peanut|lactose|dairy|celiac|coeliac|shellfish|sesam|nuss|nüsse|noix|arachide|frutos secos|noci|sans gluten|senza glutine|sin gluten/i.test(note);
