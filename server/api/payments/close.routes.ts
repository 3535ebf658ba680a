import { recordCashCount } from '../../domain/payments/cash-counts.ts';
import { dayClose } from '../../domain/payments/day-close.ts';
import { printZReport } from '../../domain/payments/z-report.ts';
import { getPrinter } from '../../domain/printers/printers.ts';
import { modeOf } from '../../domain/modes.ts';
import { ApiError } from '../../errors.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, type RouteSpec } from '../../http/route.ts';
import { listOf } from '../../model/schemas.ts';
import { listParams, q } from '../../http/query.ts';
import { z } from 'zod';
import { presentPrintJob, ReceiptJobsSchema } from '../../presenters/printers.ts';
import { CashCountSchema, DayCloseSchema, presentCashCount, presentDayClose } from '../../presenters/day-close.ts';
import { CreateCashCount, DayCloseQuery, PrintDayClose } from './schema.ts';

const tag = 'Day close';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/reports/day_close',
    response: DayCloseSchema,
    summary: "The close of a business day: payments by method (refunds netted), tips by server, sales and tax by rate, open checks, cash over/short",
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'payments:manage',
    query: DayCloseQuery,
    handler: async (c) => presentDayClose(await dayClose(c.db, c.actor(), c.query.date)),
  }),

  defineRoute({
    method: 'post',
    path: '/v1/reports/day_close/print',
    errors: ['printer_not_configured', 'resource_missing'],
    response: ReceiptJobsSchema,
    summary: 'Print the Z report of a business day on the printer named, or on every receipt printer; returns the print jobs',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'payments:manage',
    body: PrintDayClose,
    idempotent: true,
    status: 201,
    handler: async (c) => {
      const actor = c.actor();
      let printer;
      if (c.body.printer) {
        printer = await getPrinter(c.db, actor.restaurantId, c.body.printer, 'printer');
        if (!printer.is_active) throw new ApiError('parameter_invalid', `Printer '${printer.id}' is disabled.`, 'printer');
      }
      const jobs = await printZReport(c.db, actor, await dayClose(c.db, actor, c.body.date), printer);
      return { object: 'list' as const, data: jobs.map(presentPrintJob), has_more: false as const, url: '/v1/reports/day_close/print' };
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/cash_counts',
    response: CashCountSchema,
    summary: "Record the cash counted in the drawer for a business day (today's by default); the day close shows over/short",
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'payments:manage',
    body: CreateCashCount,
    idempotent: true,
    status: 201,
    handler: async (c) => {
      const by = c.caller?.staff?.id ?? c.caller?.keyId ?? null;
      return presentCashCount(await recordCashCount(c.db, c.actor(), { ...c.body, by }));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/cash_counts',
    response: listOf(CashCountSchema),
    summary: 'List cash counts, newest first',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'payments:manage',
    query: z.object({ ...listParams(), date: q.date().optional() }),
    handler: async (c) => {
      const actor = c.actor();
      let qb = c.db.selectFrom('cash_counts').selectAll().where('restaurant_id', '=', actor.restaurantId).where('livemode', '=', modeOf(actor));
      if (c.query.date) qb = qb.where('business_date', '=', c.query.date);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('cash_counts'), url: '/v1/cash_counts' });
      return mapPage(page, (rows) => rows.map(presentCashCount));
    },
  }),
];
