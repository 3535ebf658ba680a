import { sql } from 'kysely';
import { createPrinter, deletePrinter, getPrinter, updatePrinter } from '../../domain/printers/printers.ts';
import { enqueueTestPage } from '../../domain/printers/jobs.ts';
import { ApiError } from '../../errors.ts';
import { applyExpand, registerExpandable, expanded } from '../../http/expand.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type Call, type RouteSpec } from '../../http/route.ts';
import { presentPrinters } from './load.ts';
import { DeletedPrinterSchema, presentPrintJob, PrinterSchema, PrintJobSchema } from '../../presenters/printers.ts';
import { CreatePrinter, ListPrinters, UpdatePrinter } from './schema.ts';
import { listOf } from '../../model/schemas.ts';
import type { PrinterRow } from '../../db/tables/printers.table.ts';

registerExpandable('printer', {
  refs: { backup_printer: 'printer' },
  load: async ({ db, restaurantId }, ids) => {
    const rows = await db.selectFrom('printers').selectAll().where('restaurant_id', '=', restaurantId).where('id', 'in', ids).execute();
    return new Map((await presentPrinters(db, restaurantId, rows)).map((p) => [p.id, p]));
  },
});

const present = async (c: Call<any, any, any>, rows: PrinterRow[]) => expanded(c, 'printer', await presentPrinters(c.db, c.actor().restaurantId, rows));

const tag = 'Printers';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/printers',
    response: listOf(PrinterSchema),
    summary: 'List printers, newest first',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'printers:read',
    query: ListPrinters,
    expand: 'printer',
    handler: async (c) => {
      let qb = c.db.selectFrom('printers').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
      if (c.query.station) {
        // stations is a JSON array of keys; match the quoted key, with LIKE's wildcards escaped
        const pattern = `%${JSON.stringify(c.query.station).replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        qb = qb.where(sql<boolean>`stations like ${pattern} escape '\\'`);
      }
      if (c.query.is_active !== undefined) qb = qb.where('is_active', '=', c.query.is_active ? 1 : 0);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('printers'), url: '/v1/printers' });
      return mapPage(page, (rows) => present(c, rows));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/printers/:id',
    response: PrinterSchema,
    summary: 'Retrieve a printer with its last known status',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'printers:read',
    params: idParam('prt_ id'),
    expand: 'printer',
    handler: async (c) => (await present(c, [await getPrinter(c.db, c.actor().restaurantId, c.params.id)]))[0],
  }),

  defineRoute({
    method: 'post',
    path: '/v1/printers',
    errors: ['resource_missing', 'unknown_station'],
    response: PrinterSchema,
    summary: 'Add a printer: raw TCP (port 9100) or virtual (prints nowhere; its jobs are kept and previewed), ESC/POS or StarPRNT, 58 or 80 mm paper, the stations it prints for',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'printers:write',
    body: CreatePrinter,
    expand: 'printer',
    idempotent: true,
    status: 201,
    handler: async (c) => (await present(c, [await createPrinter(c.db, c.actor(), c.body)]))[0],
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/printers/:id',
    errors: ['unknown_station'],
    response: PrinterSchema,
    summary: 'Update a printer; only the fields sent change',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'printers:write',
    params: idParam('prt_ id'),
    body: UpdatePrinter,
    expand: 'printer',
    handler: async (c) => {
      const row = await c.services.tx.run((trx) => updatePrinter(trx, c.actor(), c.params.id, c.body));
      return (await present(c, [row]))[0];
    },
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/printers/:id',
    errors: ['resource_conflict'],
    response: DeletedPrinterSchema,
    summary: 'Delete a printer; its unprinted jobs fail. Refused while it is another printer’s backup.',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'printers:write',
    params: idParam('prt_ id'),
    handler: async (c) => {
      const row = await c.services.tx.run((trx) => deletePrinter(trx, c.actor(), c.params.id));
      return { id: row.id, object: 'printer' as const, deleted: true as const };
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/printers/:id/test',
    errors: ['state_conflict'],
    response: PrintJobSchema,
    summary: 'Queue a test page on a printer; returns the print job',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'printers:write',
    params: idParam('prt_ id'),
    idempotent: true,
    status: 201,
    handler: async (c) => {
      const printer = await getPrinter(c.db, c.actor().restaurantId, c.params.id);
      if (!printer.is_active) throw new ApiError('state_conflict', `Printer '${printer.id}' is disabled; enable it before printing a test page.`, 'id');
      return presentPrintJob(await enqueueTestPage(c.db, c.actor(), printer.id));
    },
  }),
];
