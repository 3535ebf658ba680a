import { literal } from '../../../printers/encoder.ts';
import type { Executor } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { localTime, money } from '../printers/documents.ts';
import { enqueueJob } from '../printers/jobs.ts';
import { receiptPrinters } from '../printers/printers.ts';
import type { DayClose } from './day-close.ts';
import type { PrintJobRow } from '../../db/tables/print-jobs.table.ts';
import type { PrinterRow } from '../../db/tables/printers.table.ts';

const METHOD_LABEL = { cash: 'Cash', card: 'Card', other: 'Other' } as const;

/** The day's close as a ReceiptLine document: the Z report kept with the day's takings. */
export function zReport(restaurantName: string, timezone: string, d: DayClose, atMs: number): string {
  const m = (n: number) => money(n, d.currency);
  const out = [`^^${literal(restaurantName)}`, '^^Z REPORT', '{width:auto}', `|Business day | ${d.date}`, `|Printed | ${localTime(atMs, timezone)}`, '---', '{width:*,12}'];
  out.push('^PAYMENTS');
  for (const x of d.by_method) out.push(`|${METHOD_LABEL[x.method]} (${x.count}) | ${m(x.amount)}`);
  out.push(`|^Total | ^${m(d.total_amount)}`, `|Refunds (${d.refunds.count}) | -${m(d.refunds.amount)}`, `|Tips | ${m(d.total_tips)}`);
  for (const t of d.tips_by_server) out.push(`|~~${literal(t.name ?? 'No server')} | ${m(t.tip_amount)}`);
  out.push('---', '^SALES', `|Orders | ${d.sales.orders}`, `|Net sales | ${m(d.sales.subtotal)}`);
  for (const r of d.sales.by_tax_rate) out.push(`|Tax ${+(r.rate * 100).toFixed(2)}% on ${m(r.sales)} | ${m(r.tax_amount)}`);
  out.push(`|Tax | ${m(d.sales.tax_amount)}`);
  out.push(`|Discounts (${d.discounts.count}) | -${m(d.discounts.amount)}`, `|Comps (${d.comps.count}) | -${m(d.comps.amount)}`, `|Voids (${d.voids.count}) | ${m(d.voids.amount)}`);
  out.push(`|^Gross | ^${m(d.sales.total)}`, '---', '^CASH DRAWER', `|Expected | ${m(d.cash.expected)}`);
  if (d.cash.counted !== null) out.push(`|Counted | ${m(d.cash.counted)}`, `|${d.cash.over_short! < 0 ? 'Short' : 'Over'} | ${m(d.cash.over_short!)}`);
  else out.push('|Counted | not counted');
  out.push('---', `|Open checks (${d.open_orders.count}) | ${m(d.open_orders.amount_due)}`);
  for (const o of d.open_orders.orders) out.push(`|~~#${literal(o.order_number)} | ${m(o.amount_due)}`);
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
