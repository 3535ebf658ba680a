import { renderSvg } from '../../../printers/encoder.ts';
import { modeOf } from '../../domain/modes.ts';
import { withMarks } from '../../domain/printers/documents.ts';
import { getJob, reprintJob } from '../../domain/printers/jobs.ts';
import { findPrinter, getPrinter } from '../../domain/printers/printers.ts';
import { applyExpand, registerExpandable, expanded } from '../../http/expand.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type Call, type RouteSpec } from '../../http/route.ts';
import { jobListJson } from './job-json.ts';
import { presentPrintJob, PRESENTED_JOB_COLUMNS, PrintJobSchema, type ListedPrintJob } from '../../presenters/printers.ts';
import { ListPrintJobs, Reprint } from './schema.ts';
import { listOf } from '../../model/schemas.ts';
import type { PrintJobRow } from '../../db/tables/print-jobs.table.ts';

registerExpandable('print_job', { refs: { printer: 'printer', original_printer: 'printer' } });

const present = (c: Call<any, any, any>, rows: ListedPrintJob[]) => expanded(c, 'print_job', rows.map(presentPrintJob));

const tag = 'Print jobs';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/print_jobs',
    response: listOf(PrintJobSchema),
    summary: 'List print jobs and their state, newest first',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'printers:read',
    query: ListPrintJobs,
    expand: 'print_job',
    handler: async (c) => {
      // Documents are the bulk of a job and no list shows them: they stay in the table.
      const actor = c.actor();
      const jobs = () => {
        let qb = c.db.selectFrom('print_jobs').where('restaurant_id', '=', actor.restaurantId).where('livemode', '=', modeOf(actor));
        if (c.query.printer) qb = qb.where('printer_id', '=', c.query.printer);
        if (c.query.order) qb = qb.where('order_id', '=', c.query.order);
        if (c.query.state) qb = qb.where('state', '=', c.query.state);
        if (c.query.kind) qb = qb.where('kind', '=', c.query.kind);
        return qb;
      };
      const opts = { ...c.query, keys: NEWEST_FIRST('print_jobs'), url: '/v1/print_jobs' };
      if (c.expand.length === 0) {
        // the poll of a print-queue screen: kept until a job changes (see job-json.ts)
        const json = await jobListJson(c.db, { ...actor, key: c.ctx.querystring }, jobs().select(['id', 'created', 'rev']), opts);
        if (json !== undefined) {
          c.ctx.type = 'application/json';
          return typeof json === 'string' ? Buffer.from(json) : json;
        }
      }
      const page = await paginate(jobs().select(PRESENTED_JOB_COLUMNS), opts);
      return mapPage(page, (rows) => present(c, rows));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/print_jobs/:id',
    response: PrintJobSchema,
    summary: 'Retrieve a print job',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'printers:read',
    params: idParam('pj_ id'),
    expand: 'print_job',
    handler: async (c) => (await present(c, [await getJob(c.db, c.actor(), c.params.id)]))[0],
  }),

  defineRoute({
    method: 'get',
    path: '/v1/print_jobs/:id/preview',
    responseType: 'image/svg+xml',
    summary: 'The job as it prints (marks included), as an SVG image (image/svg+xml) at its printer’s paper width',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'printers:read',
    params: idParam('pj_ id'),
    handler: async (c) => {
      const actor = c.actor();
      const { restaurantId } = actor;
      const job = await getJob(c.db, actor, c.params.id);
      const printer = await findPrinter(c.db, restaurantId, job.printer_id);
      const svg = renderSvg(withMarks(job.document, JSON.parse(job.marks) as string[]), printer?.paper_width ?? 80);
      c.ctx.type = 'image/svg+xml';
      // printed text drawn as an image: opened on its own it may run nothing and load nothing
      c.ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      return svg;
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/print_jobs/:id/reprint',
    errors: ['printer_not_configured'],
    response: PrintJobSchema,
    summary: 'Print a job again as a new job marked REPRINT, on its original printer or the one named',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'printers:write',
    params: idParam('pj_ id'),
    body: Reprint,
    idempotent: true,
    status: 201,
    handler: async (c) => {
      if (c.body.printer) await getPrinter(c.db, c.actor().restaurantId, c.body.printer, 'printer');
      return presentPrintJob(await reprintJob(c.db, c.actor(), c.params.id, c.body.printer));
    },
  }),
];
