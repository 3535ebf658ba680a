import { DateTime } from 'luxon';
import { catalogueOf } from '../menu/catalogue.ts';
import { balanceOf } from '../../model/payments.ts';
import { charsPerLine, literal } from '../../../printers/encoder.ts';
import type { Executor } from '../../db/records.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

/**
 * Tickets and receipts as ReceiptLine documents: one text renders to ESC/POS, StarPRNT and
 * SVG alike (printers/encoder.ts). Every piece of free text goes through `literal` so a
 * dish called "Fish | Chips" can not change the layout.
 */

export interface OrderContext {
  restaurantName: string;
  timezone: string;
  currency: string;
  /** "Table 12", "Terrace 3" (virtual table) or null */
  table: string | null;
  server: string | null;
  /** Modifier group names by id (order lines store the group's id). */
  modifierGroups: Map<string, string>;
}

type Modifier = { group: string; name: string; price_adjustment: number };

const TYPE_LABEL: Record<OrderRow['type'], string> = { dine_in: 'DINE IN', takeout: 'TAKEOUT', delivery: 'DELIVERY' };

/** `serverId`: whom the document names as the server (a round's sender); the check's server by default. */
export async function loadOrderContext(db: Executor, order: OrderRow, serverId: string | null = order.server_id): Promise<OrderContext> {
  // the restaurant and its menu as priced (cached per version): no query per ticket for either
  const { restaurant, groups } = await catalogueOf(db, order.restaurant_id);
  let table: string | null = null;
  if (order.is_virtual_table && order.virtual_table_label) table = order.virtual_table_label;
  else if (order.table_id) {
    const t = await db.selectFrom('tables').select('number').where('restaurant_id', '=', order.restaurant_id).where('id', '=', order.table_id).executeTakeFirst();
    table = t ? `Table ${t.number}` : null;
  }
  let server: string | null = null;
  if (serverId) {
    const u = await db.selectFrom('users').select('name').where('restaurant_id', '=', order.restaurant_id).where('id', '=', serverId).executeTakeFirst();
    server = u?.name ?? null;
  }
  const modifierGroups = new Map([...groups.values()].map((g) => [g.id, g.name]));
  return { restaurantName: restaurant.name, timezone: restaurant.timezone, currency: restaurant.currency, table, server, modifierGroups };
}

export const localTime = (ms: number, timezone: string): string => DateTime.fromMillis(ms, { zone: timezone }).toFormat('yyyy-MM-dd HH:mm');

/** Minor units as a decimal amount of the currency: 2950 EUR → "29.50", 1200 JPY → "1200". */
export function money(amount: number, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // unknown code: two decimals
  }
  const sign = amount < 0 ? '-' : '';
  return sign + (Math.abs(amount) / 10 ** digits).toFixed(digits);
}

const modifiersOf = (item: OrderItemRow): Modifier[] => JSON.parse(item.modifiers) as Modifier[];

/** A kitchen ticket for one station: only the given lines (one round, or the first one). */
export function kitchenTicket(
  ctx: OrderContext,
  order: OrderRow,
  station: { key: string; name: string },
  lines: OrderItemRow[],
  round: number,
  atMs: number,
): string {
  const out = [
    `^^^${literal(station.name.toUpperCase())}`,
    `^^Order #${literal(order.order_number)}`,
    '{width:auto}',
    `|^^${literal(ctx.table ?? '-')} | ^^${TYPE_LABEL[order.type]}`,
    '{width:*}',
    `|${localTime(atMs, ctx.timezone)}`,
  ];
  if (round > 1) out.push(`^"ROUND ${round}"`);
  if (ctx.server) out.push(`|Server: ${literal(ctx.server)}`);
  if (order.customer_name) out.push(`|Guest: ${literal(order.customer_name)}`);
  out.push('---');
  for (const item of lines) {
    // double height, normal width: big enough across the pass, no wrapping on 58 mm
    out.push(`|^^${item.quantity} x ${literal(item.name)}`);
    const where = [item.seat ? `Seat ${item.seat}` : '', item.course ? `Course ${item.course}` : ''].filter(Boolean).join(' · ');
    if (where) out.push(`|~~~${where}`);
    // lines store the group's id; print its name as the menu has it (the stored value if the group is gone)
    for (const m of modifiersOf(item)) out.push(`|~~~+ ${literal(ctx.modifierGroups.get(m.group) ?? m.group)}: ${literal(m.name)}`);
    if (item.notes) out.push(`|~~~"Note: ${literal(item.notes)}"`);
  }
  out.push('---');
  if (order.notes) out.push(`|"Order note:" ${literal(order.notes)}`, '---');
  return out.join('\n');
}

/** Taking lines back from a station: big VOID, what and why, so the cook stops at a glance. */
export function voidTicket(ctx: OrderContext, order: OrderRow, station: { key: string; name: string }, lines: OrderItemRow[], atMs: number): string {
  const out = [
    `^^^${literal(station.name.toUpperCase())}`,
    '`^^^ VOID `',
    `^^Order #${literal(order.order_number)}`,
    '{width:auto}',
    `|^^${literal(ctx.table ?? '-')} | ^^${TYPE_LABEL[order.type]}`,
    '{width:*}',
    `|${localTime(atMs, ctx.timezone)}`,
    '---',
  ];
  for (const item of lines) {
    out.push(`|^^VOID ${item.quantity} x ${literal(item.name)}`);
    if (item.seat) out.push(`|~~~Seat ${item.seat}`);
    if (item.void_reason) out.push(`|~~~"Reason: ${literal(item.void_reason)}"`);
  }
  out.push('---');
  return out.join('\n');
}

/** A payment as the receipt prints it. */
export interface ReceiptPayment {
  method: 'cash' | 'card' | 'other';
  amount: number;
  tip_amount: number;
  tendered_amount: number | null;
  change_amount: number | null;
  reference: string | null;
  refunded: number;
}

const METHOD = { cash: 'Cash', card: 'Card', other: 'Other' } as const;

/**
 * The guest's receipt: every line, taxes by rate when they add up, totals in the restaurant's
 * currency; then the payments taken (tip, cash tendered and change) and what is still due.
 */
/** A receipt without the moment it was made: two receipts with the same body say the same to the guest. */
export const receiptBody = (document: string): string =>
  document
    .split('\n')
    .filter((line) => !line.startsWith('|Order #'))
    .join('\n');

export function receipt(ctx: OrderContext, order: OrderRow, items: OrderItemRow[], atMs: number, payments: ReceiptPayment[] = []): string {
  const cur = order.currency || ctx.currency;
  // every amount of a label | amount row, as printed: the money column is sized to the longest
  const amounts: string[] = [];
  const m = (n: number, sign = '') => {
    const text = sign + money(n, cur);
    amounts.push(text);
    return text;
  };
  const out = [
    `^^${literal(ctx.restaurantName)}`,
    '{width:auto}',
    `|Order #${literal(order.order_number)} | ${localTime(atMs, ctx.timezone)}`,
  ];
  if (ctx.table || ctx.server) out.push(`|${literal(ctx.table ?? '')} | ${ctx.server ? `Server: ${literal(ctx.server)}` : ''}`);
  out.push('---', MONEY_COLUMN);
  const billed = items.filter((i) => !i.voided_at);
  for (const item of billed) {
    out.push(`|${item.quantity} x ${literal(item.name)} | ${m(item.line_subtotal)}`);
    const mods = modifiersOf(item);
    if (mods.length > 0) out.push('{width:*}', ...mods.map((mod) => `|~~~+ ${literal(mod.name)}`), MONEY_COLUMN);
    if (item.discount_amount) out.push(`|~~~${literal(item.discount_reason ?? 'Discount')} | ${m(item.discount_amount, '-')}`);
  }
  out.push('---', `|Subtotal | ${m(order.subtotal)}`);
  if (order.discount_amount) out.push(`|Discount | ${m(order.discount_amount, '-')}`);
  const byRate = new Map<number, number>();
  for (const item of billed) byRate.set(item.tax_rate, (byRate.get(item.tax_rate) ?? 0) + item.tax_amount);
  const rateSum = [...byRate.values()].reduce((a, b) => a + b, 0);
  const rates = [...byRate].sort((a, b) => a[0] - b[0]).filter(([, amount]) => amount);
  const inclusive = order.prices_include_tax === 1;
  const taxLines = (label: (rate: number) => string) => rates.map(([rate, amount]) => `|${label(rate)} | ${m(amount)}`);
  // tax on top is a line of the sum; tax inside the prices is told after the total
  if (!inclusive) {
    if (rateSum === order.tax_amount && byRate.size > 0) out.push(...taxLines((rate) => `Tax ${+(rate * 100).toFixed(2)}%`));
    else if (order.tax_amount) out.push(`|Tax | ${m(order.tax_amount)}`);
  }
  if (order.delivery_fee) out.push(`|Delivery fee | ${m(order.delivery_fee)}`);
  if (order.tip_amount) out.push(`|Tip | ${m(order.tip_amount)}`);
  out.push('---', ...headlineAmount(`TOTAL ${literal(cur.toUpperCase())}`, money(order.total, cur)), MONEY_COLUMN);
  if (inclusive) out.push(...taxLines((rate) => `incl. VAT ${+(rate * 100).toFixed(2)} %:`));
  if (payments.length) {
    out.push('---');
    for (const p of payments) {
      out.push(`|${METHOD[p.method]}${p.reference ? ` ${literal(p.reference)}` : ''} | ${m(p.amount)}`);
      if (p.tip_amount) out.push(`|~~Tip | ${m(p.tip_amount)}`);
      if (p.tendered_amount !== null) out.push(`|~~Tendered | ${m(p.tendered_amount)}`, `|~~Change | ${m(p.change_amount ?? 0)}`);
      if (p.refunded) out.push(`|~~Refunded | ${m(p.refunded, '-')}`);
    }
    // the order's own balance: a return given on a completed check is owed by nobody (it printed as Due)
    const due = balanceOf(order).amount_due;
    out.push(...(due > 0 ? headlineAmount('Due', money(due, cur)) : ['{width:*}', '|^PAID']));
  }
  out.push('{width:*}', '', 'Thank you!');
  const column = moneyColumn(amounts);
  return out.map((line) => (line === MONEY_COLUMN ? column : line)).join('\n');
}

/** Stands for the money column's width line until the document's amounts are all known. */
const MONEY_COLUMN = '\u0000money column';

/** Every document fits the narrowest paper (58 mm): a job can move to a backup printer of either width. */
const NARROWEST = charsPerLine(58);

/**
 * The printed width of a ReceiptLine cell: leading `^`s scale what follows (`^` double width,
 * `^^` double height only, `^^^` and up 2×, 3×…), decorations (`"` `_` `` ` ``) take no room, an
 * escaped character counts once.
 */
function cellWidth(cell: string): number {
  const carets = /^\^*/.exec(cell)![0].length;
  const scale = carets === 0 || carets === 2 ? 1 : carets === 1 ? 2 : Math.min(carets, 7) - 1;
  const chars = cell
    .slice(carets)
    .replace(/(?<!\\)["_`]/g, '')
    .replace(/\\(.)/g, '$1').length;
  return scale * chars;
}

/**
 * The `{width:*,N}` line of a block of `|label | amount` rows: N is the widest of the
 * amounts as printed (each as its row prints it, sign and `^` included), so no amount is ever
 * split over two lines (a `{width:*,10}` column cut `^101.90` after `101.9`). The label column
 * takes what is left. For the amounts of a document — receipt, Z report — collected as they are
 * written: `moneyColumn(['29.50', '-3.00', '^12345.67'])` is `{width:*,16}`.
 */
export function moneyColumn(amounts: readonly string[]): string {
  return `{width:*,${Math.max(1, ...amounts.map(cellWidth))}}`;
}

/**
 * A headline amount (TOTAL EUR, Due) on one line at 58 and 80 mm, up to 9,999,999.99 and
 * ¥1,234,567: the amount double width in a column of its own size, the label double width
 * when both fit on 58 mm and else at normal width in bold. An amount too long even for that
 * prints at normal width, still on one line. Returns the width line and the row: the caller
 * sets its own width again after it (the headline's column would squeeze its next rows).
 * `label` is ReceiptLine text (free text already through `literal`), `amount` the plain figure.
 */
export function headlineAmount(label: string, amount: string): string[] {
  const labelWidth = cellWidth(label);
  const fits = (l: number, a: number) => l + 1 + a <= NARROWEST;
  if (fits(2 * labelWidth, 2 * amount.length)) return [`{width:*,${2 * amount.length}}`, `|^${label} | ^${amount}`];
  if (fits(labelWidth, 2 * amount.length)) return [`{width:*,${2 * amount.length}}`, `|"${label}" | ^${amount}`];
  return [`{width:*,${amount.length}}`, `|"${label}" | "${amount}"`];
}

export function testPage(printer: { name: string; language: string; paper_width: number }, transport: string, atMs: number, timezone: string): string {
  return [
    '^^TEST PAGE',
    `^${literal(printer.name)}`,
    '{width:auto}',
    `|Connection | ${literal(transport)}`,
    `|Language | ${printer.language}`,
    `|Paper | ${printer.paper_width} mm`,
    `|Time | ${localTime(atMs, timezone)}`,
    '---',
    '{width:*}',
    '|ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789',
    '|"Bold" ^Wide^ _Underline_ `Inverted`',
    '---',
  ].join('\n');
}

/** Marks (REPRINT, BACKUP FROM <name>) go above the document, large and inverted. */
export function withMarks(doc: string, marks: string[]): string {
  if (marks.length === 0) return doc;
  return [...marks.map((mark) => `^^\`${literal(mark)}\``), doc].join('\n');
}
