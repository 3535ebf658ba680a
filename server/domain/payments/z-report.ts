import { literal } from '../../../printers/encoder.ts';
import type { Executor } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { localTime, money, moneyColumn } from '../printers/documents.ts';
import { enqueueJob } from '../printers/jobs.ts';
import { receiptPrinters } from '../printers/printers.ts';
import type { DayClose } from '../../model/payments.ts';
import type { PrintJobRow } from '../../db/tables/print-jobs.table.ts';
import type { PrinterRow } from '../../db/tables/printers.table.ts';

const METHOD_LABEL = { cash: 'Cash', card: 'Card', other: 'Other' } as const;

/**
 * The day's close as a ReceiptLine document: the Z report kept with the day's takings, in the
 * order an accountant ties it out (payments.md, "The close"): sales from gross to net, returns,
 * tax by rate on its base, payments by method net of refunds, tips, the drawer, what is still
 * open, cancellations and voids. The amounts' column is as wide as the longest amount, so a
 * figure never breaks over two lines at 58 or 80 mm.
 */
export function zReport(restaurantName: string, timezone: string, d: DayClose, atMs: number): string {
  const m = (n: number) => money(n, d.currency);
  const minus = (n: number) => (n ? `-${m(n)}` : m(0));
  const s = d.sales;
  const rows: string[] = [];
  const amounts: string[] = [];
  const row = (label: string, amount: string) => {
    amounts.push(amount);
    rows.push(`|${label} | ${amount}`);
  };
  // the figures a reader looks for first: bold (double width would not fit 58 mm for long amounts)
  const strong = (label: string, amount: string) => row(`"${label}"`, `"${amount}"`);
  // a heading spans the paper; the rows after it go back to the amounts' column
  const COLUMN = '\u0000column';
  const heading = (title: string) => rows.push('{width:*}', `^${title}`, COLUMN);
  heading('SALES');
  row(`Orders`, String(s.orders));
  row(`Gross sales`, m(s.gross));
  row(`Discounts (${d.discounts.count})`, minus(s.discounts));
  row(`Comps (${d.comps.count})`, minus(s.comps));
  strong(`Net sales${d.prices_include_tax ? ' incl. tax' : ''}`, m(s.net));
  for (const r of s.by_tax_rate) row(`Tax ${+(r.rate * 100).toFixed(2)}% on ${m(r.base)}`, m(r.tax));
  row('Tax', m(s.tax));
  row('Net excl. tax', m(s.net_excl_tax));
  if (s.delivery_fees) row('Delivery fees', m(s.delivery_fees));
  if (s.order_tips) row('Tips on orders', m(s.order_tips));
  row('Billed', m(s.total));
  row(`Returns (${d.refunds.returns.count})`, minus(s.refunds));
  strong('Net after returns', m(s.net_after_returns));
  row(`Voids (${d.voids.count})`, m(d.voids.amount));
  rows.push('---');
  heading('PAYMENTS');
  for (const x of d.by_method) row(`${METHOD_LABEL[x.method]} (${x.count})`, m(x.amount));
  row(`Refunds (${d.refunds.count})`, minus(d.payments.refunded));
  strong('Payments, net', m(d.payments.net));
  row('Tips', m(d.total_tips));
  for (const t of d.tips_by_server) row(`~~${literal(t.name ?? 'No server')}`, m(t.tip_amount));
  rows.push('---');
  heading('CASH DRAWER');
  row('Opening float', m(d.cash.opening_float));
  row('Cash sales', m(d.cash.sales));
  row('Cash tips', m(d.cash.tips));
  row('Paid in', m(d.cash.paid_in));
  row('Paid out', minus(d.cash.paid_out));
  row('Expected', m(d.cash.expected));
  if (d.cash.counted !== null) {
    row('Counted', m(d.cash.counted));
    row(d.cash.over_short! < 0 ? 'Short' : 'Over', m(Math.abs(d.cash.over_short!)));
  } else row('Counted', 'not counted');
  rows.push('---');
  row(`Open checks (${d.open_orders.count})`, m(d.open_orders.amount_due));
  for (const o of d.open_orders.orders) row(`~~#${literal(o.order_number)}`, m(o.amount_due));
  row(`Cancelled checks (${d.cancellations.count})`, m(d.cancellations.amount));
  for (const c of d.cancellations.orders) row(`~~#${literal(c.order_number)} ${literal(c.approved_by_name ?? (c.approved_by ? '' : 'key'))}`, m(c.amount));
  // the column fits the longest amount; the label takes the rest of the line
  const out = [`^^${literal(restaurantName)}`, '^^Z REPORT', '{width:auto}', `|Business day | ${d.date}`, `|Printed | ${localTime(atMs, timezone)}`, '---', ...rows.map((r) => (r === COLUMN ? moneyColumn(amounts) : r))];
  out.push('{width:*}', '', '=');
  return out.join('\n');
}

/** Prints the Z report on the printer named, or on every receipt printer. */
export async function printZReport(trx: Executor, actor: Actor, close: DayClose, printer?: PrinterRow): Promise<PrintJobRow[]> {
  const printers = printer ? [printer] : await receiptPrinters(trx, actor.restaurantId);
  if (!printers.length) throw new ApiError('printer_not_configured', 'No active printer prints receipts; name one with `printer` or set prints_receipts on a printer.', 'printer');
  const { restaurant } = await catalogueOf(trx, actor.restaurantId);
  const document = zReport(restaurant.name, restaurant.timezone, close, actor.now);
  const jobs: PrintJobRow[] = [];
  for (const p of printers) jobs.push(await enqueueJob(trx, actor, { kind: 'z_report', printer: p, document, live: actor.livemode }));
  return jobs;
}
