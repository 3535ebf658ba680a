import { modeOf } from '../modes.ts';
import type { Executor } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { findStation, stationsInOrder } from '../menu/stations.ts';
import { getRestaurant } from '../restaurants/restaurants.ts';
import { seconds } from '../time.ts';
import { kitchenTicket, loadOrderContext, receipt, receiptBody, testPage, voidTicket, type OrderContext, type ReceiptPayment } from './documents.ts';
import { findPrinter, getPrinter, printersForStation, receiptPrinters } from './printers.ts';
import { printerTransport } from '../../model/printers.ts';
import { describeTransport } from '../../../printers/transport.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';
import type { PrinterRow } from '../../db/tables/printers.table.ts';
import type { PrintJobRow } from '../../db/tables/print-jobs.table.ts';

export const SANDBOX_SKIP = 'sandbox: nothing is printed';

interface NewJob {
  kind: PrintJobRow['kind'];
  printer: PrinterRow;
  document: string;
  live: boolean;
  orderId?: string | null;
  station?: string | null;
  round?: number | null;
  marks?: string[];
  reprintOf?: string | null;
  /** the lines a kitchen ticket carries */
  lineIds?: string[];
  /** the ticket takes them back (VOID) */
  voids?: boolean;
}

/**
 * Puts one job in the queue, inside the caller's transaction: the job commits with the
 * order change that caused it (outbox) and the dispatcher picks it up after the commit.
 * Sandbox jobs are recorded as skipped and never reach a printer.
 */
export async function enqueueJob(trx: Executor, actor: Actor, job: NewJob): Promise<PrintJobRow> {
  const now = seconds(actor);
  return trx
    .insertInto('print_jobs')
    .values({
      id: newId(PREFIXES.printJob, actor.now),
      restaurant_id: actor.restaurantId,
      kind: job.kind,
      printer_id: job.printer.id,
      original_printer_id: job.printer.id,
      order_id: job.orderId ?? null,
      station: job.station ?? null,
      round: job.round ?? null,
      document: job.document,
      marks: JSON.stringify(job.marks ?? []),
      state: job.live ? 'queued' : 'skipped',
      attempts: 0,
      last_error: job.live ? null : SANDBOX_SKIP,
      next_attempt_at: now,
      lease_owner: null,
      lease_until: null,
      write_started_at: null,
      printed_at: null,
      reprint_of: job.reprintOf ?? null,
      line_ids: JSON.stringify(job.lineIds ?? []),
      voids: job.voids ? 1 : 0,
      livemode: job.live ? 1 : 0,
      created: now,
      updated: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The lines grouped by station, the stations in the kitchen's order (their position): the
 * tickets of one order come off the printers, and reach the screens, in that order.
 */
async function linesByStation(trx: Executor, restaurantId: string, lines: OrderItemRow[]): Promise<Map<string, OrderItemRow[]>> {
  const order = (await stationsInOrder(trx, restaurantId).select('key').execute()).map((s) => s.key);
  const rank = (key: string) => (order.indexOf(key) + 1 || order.length + 1);
  const byStation = new Map<string, OrderItemRow[]>();
  for (const l of [...lines].sort((a, b) => rank(a.station) - rank(b.station))) byStation.set(l.station, [...(byStation.get(l.station) ?? []), l]);
  return byStation;
}

/** One ticket per printer of each station, each with only that station's lines (`marks` above it: LATE …). */
export async function enqueueKitchenTickets(trx: Executor, actor: Actor, order: OrderRow, lines: OrderItemRow[], marks: string[] = []): Promise<PrintJobRow[]> {
  const byStation = await linesByStation(trx, order.restaurant_id, lines);
  const jobs: PrintJobRow[] = [];
  let ctx: OrderContext | undefined;
  for (const [key, stationLines] of byStation) {
    const printers = await printersForStation(trx, order.restaurant_id, key);
    if (printers.length === 0) continue;
    // headed by who sent these lines (a second server's round is theirs, not the check's opener's)
    ctx ??= await loadOrderContext(trx, order, lines.find((l) => l.sent_by)?.sent_by);
    const station = await findStation(trx, order.restaurant_id, key);
    const round = Math.max(...stationLines.map((l) => l.round));
    const document = kitchenTicket(ctx, order, { key, name: station?.name ?? key }, stationLines, round, actor.now);
    for (const printer of printers) {
      jobs.push(
        await enqueueJob(trx, actor, {
          kind: 'kitchen_ticket', printer, document, live: order.livemode === 1, orderId: order.id, station: key, round, marks, lineIds: stationLines.map((l) => l.id),
        }),
      );
    }
  }
  return jobs;
}

/** A void ticket per station for lines it had and must not cook (or must take back); `marks` above it: LATE … */
export async function enqueueVoidTickets(trx: Executor, actor: Actor, order: OrderRow, lines: OrderItemRow[], marks: string[] = []): Promise<PrintJobRow[]> {
  const byStation = await linesByStation(trx, order.restaurant_id, lines);
  const jobs: PrintJobRow[] = [];
  let ctx: OrderContext | undefined;
  for (const [key, stationLines] of byStation) {
    const printers = await printersForStation(trx, order.restaurant_id, key);
    if (printers.length === 0) continue;
    ctx ??= await loadOrderContext(trx, order);
    const station = await findStation(trx, order.restaurant_id, key);
    const document = voidTicket(ctx, order, { key, name: station?.name ?? key }, stationLines, actor.now);
    const round = Math.max(...stationLines.map((l) => l.round));
    for (const printer of printers) {
      jobs.push(
        await enqueueJob(trx, actor, {
          kind: 'kitchen_ticket', printer, document, live: order.livemode === 1, orderId: order.id, station: key, round, marks, lineIds: stationLines.map((l) => l.id), voids: true,
        }),
      );
    }
  }
  return jobs;
}

/**
 * The receipt of an order on one printer, or on every receipt printer when none is named.
 * `live` is false for sandbox orders and sandbox callers.
 */
export async function enqueueReceipts(
  trx: Executor,
  actor: Actor,
  order: OrderRow,
  items: OrderItemRow[],
  opts: { printer?: PrinterRow; live: boolean; required: boolean; unlessPrinted?: boolean },
): Promise<PrintJobRow[]> {
  const printers = opts.printer ? [opts.printer] : await receiptPrinters(trx, order.restaurant_id);
  if (printers.length === 0) {
    if (opts.required) throw new ApiError('printer_not_configured', 'No active printer prints receipts; name one with `printer` or set prints_receipts on a printer.', 'printer');
    return [];
  }
  const document = receipt(await loadOrderContext(trx, order), order, items, actor.now, await receiptPayments(trx, order.id));
  const jobs: PrintJobRow[] = [];
  for (const printer of printers) {
    if (opts.unlessPrinted && (await receiptAlreadyOut(trx, order.id, printer.id, document))) continue;
    jobs.push(await enqueueJob(trx, actor, { kind: 'receipt', printer, document, live: opts.live, orderId: order.id }));
  }
  return jobs;
}

/**
 * Whether this printer already has this receipt for the order (printed, printing, queued or
 * skipped in sandbox; a failed one does not count): the same lines, totals and payments, only
 * the time it was made may differ. The guest has it, so completing the order prints no copy.
 * A receipt from before a change (a payment taken since, a line added) differs and prints anew.
 */
async function receiptAlreadyOut(trx: Executor, orderId: string, printerId: string, document: string): Promise<boolean> {
  const earlier = await trx
    .selectFrom('print_jobs')
    .select('document')
    .where('order_id', '=', orderId)
    .where('kind', '=', 'receipt')
    .where('original_printer_id', '=', printerId)
    .where('state', '!=', 'failed')
    .execute();
  const body = receiptBody(document);
  return earlier.some((j) => receiptBody(j.document) === body);
}

/** The payments of an order as its receipt prints them, oldest first, with what went back on each. */
async function receiptPayments(trx: Executor, orderId: string): Promise<ReceiptPayment[]> {
  const pays = await trx.selectFrom('payments').selectAll().where('order_id', '=', orderId).orderBy('created').orderBy('id').execute();
  if (!pays.length) return [];
  const back = await trx
    .selectFrom('payment_refunds')
    .select(['payment_id', (eb) => eb.fn.sum<number>('amount').as('n')])
    .where('order_id', '=', orderId)
    .groupBy('payment_id')
    .execute();
  const refunded = new Map(back.map((r) => [r.payment_id, Number(r.n)]));
  return pays.map((p) => ({
    method: p.method,
    amount: Number(p.amount),
    tip_amount: Number(p.tip_amount),
    tendered_amount: p.tendered_amount === null ? null : Number(p.tendered_amount),
    change_amount: p.change_amount === null ? null : Number(p.change_amount),
    reference: p.reference,
    refunded: refunded.get(p.id) ?? 0,
  }));
}

export async function enqueueTestPage(trx: Executor, actor: Actor, printerId: string): Promise<PrintJobRow> {
  const printer = await getPrinter(trx, actor.restaurantId, printerId);
  const { timezone } = await getRestaurant(trx, actor.restaurantId);
  const document = testPage(printer, describeTransport(printerTransport(printer)), actor.now, timezone);
  return enqueueJob(trx, actor, { kind: 'test_page', printer, document, live: actor.livemode });
}

/** A print job as one key sees it: of its restaurant and its mode (a sandbox key never reads a real guest's ticket). */
export async function findJob(db: Executor, actor: Pick<Actor, 'restaurantId' | 'livemode'>, id: string) {
  return db
    .selectFrom('print_jobs')
    .selectAll()
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', modeOf(actor))
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function getJob(db: Executor, actor: Pick<Actor, 'restaurantId' | 'livemode'>, id: string) {
  const job = await findJob(db, actor, id);
  if (!job) throw notFound('print job', id);
  return job;
}

/**
 * A new job with the same document marked REPRINT, on the printer the original was meant
 * for (or the one named). A reprint of a sandbox job stays a sandbox job.
 */
export async function reprintJob(trx: Executor, actor: Actor, id: string, printerId?: string): Promise<PrintJobRow> {
  const original = await getJob(trx, actor, id);
  let printer: PrinterRow;
  if (printerId) printer = await getPrinter(trx, actor.restaurantId, printerId, 'printer');
  else {
    const first = await findPrinter(trx, actor.restaurantId, original.original_printer_id);
    if (!first) throw new ApiError('printer_not_configured', `The printer of job '${id}' was deleted; name another with \`printer\`.`, 'printer');
    printer = first;
  }
  return enqueueJob(trx, actor, {
    kind: original.kind,
    printer,
    document: original.document,
    live: actor.livemode && original.livemode === 1,
    orderId: original.order_id,
    station: original.station,
    round: original.round,
    marks: ['REPRINT'],
    reprintOf: original.id,
    lineIds: JSON.parse(original.line_ids) as string[],
    voids: original.voids === 1,
  });
}
