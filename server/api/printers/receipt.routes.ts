import { enqueueReceipts } from '../../domain/printers/jobs.ts';
import { getPrinter } from '../../domain/printers/printers.ts';
import { findOrder } from '../../domain/orders/find-order.ts';
import { ApiError, mustExist } from '../../errors.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { presentPrintJob, ReceiptJobsSchema } from '../../presenters/printers.ts';
import { Receipt } from './schema.ts';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'post',
    path: '/v1/orders/:id/receipt',
    errors: ['printer_not_configured', 'state_conflict'],
    response: ReceiptJobsSchema,
    summary: 'Print the order’s receipt on the printer named, or on every receipt printer; returns the print jobs',
    tag: 'Print jobs',
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'orders:write',
    params: idParam('ord_ id'),
    body: Receipt,
    idempotent: true,
    status: 201,
    handler: async (c) => {
      const actor = c.actor();
      const found = mustExist(await findOrder(c.db, actor, c.params.id), 'order', c.params.id);
      const { order, items } = found;
      if (order.status === 'draft' || order.status === 'cancelled') {
        throw new ApiError('state_conflict', `Order '${order.id}' is ${order.status}; it has no receipt.`, 'id');
      }
      let printer;
      if (c.body.printer) {
        printer = await getPrinter(c.db, actor.restaurantId, c.body.printer, 'printer');
        if (!printer.is_active) throw new ApiError('parameter_invalid', `Printer '${printer.id}' is disabled.`, 'printer');
      }
      const jobs = await enqueueReceipts(c.db, actor, order, items, { printer, live: actor.livemode && order.livemode === 1, required: true });
      return { object: 'list' as const, data: jobs.map(presentPrintJob), has_more: false as const, url: `/v1/orders/${order.id}/receipt` };
    },
  }),
];
