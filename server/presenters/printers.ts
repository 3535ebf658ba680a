import type { PrinterStatusRow } from '../db/tables/printer-status.table.ts';
import { printerStations, printerTransport } from '../model/printers.ts';
import { z } from 'zod';
import { deletedOf, named, ref, unix } from '../model/schemas.ts';
import type { PrintJobRow } from '../db/tables/print-jobs.table.ts';
import type { PrinterRow } from '../db/tables/printers.table.ts';

export const PrinterSchema = named(
  'Printer',
  z.object({
    id: z.string(),
    object: z.literal('printer'),
    created: unix(),
    updated: unix(),
    name: z.string(),
    /** `virtual`: prints nowhere, its jobs are kept to be previewed */
    transport: z.discriminatedUnion('type', [
      z.object({ type: z.literal('tcp'), host: z.string(), port: z.number().int() }),
      z.object({ type: z.literal('virtual') }),
    ]),
    language: z.enum(['escpos', 'starprnt']),
    paper_width: z.number().int(),
    stations: z.array(z.string()),
    prints_receipts: z.boolean(),
    cash_drawer: z.boolean(),
    get backup_printer() {
      return z.union([z.string(), PrinterSchema]).nullable();
    },
    is_active: z.boolean(),
    status: z.object({
      state: z.enum(['unknown', 'online', 'offline', 'paper_out', 'error']),
      detail: z.string().nullable(),
      checked_at: unix().nullable(),
    }),
  }),
);
export type Printer = z.output<typeof PrinterSchema>;
export const DeletedPrinterSchema = named('DeletedPrinter', deletedOf('printer'));

export const PrintJobSchema = named(
  'PrintJob',
  z.object({
    id: z.string(),
    object: z.literal('print_job'),
    created: unix(),
    updated: unix(),
    kind: z.enum(['kitchen_ticket', 'receipt', 'test_page', 'z_report', 'drawer_kick']),
    state: z.enum(['queued', 'printing', 'printed', 'failed', 'skipped']),
    printer: ref(PrinterSchema),
    original_printer: ref(PrinterSchema),
    order: z.string().nullable(),
    station: z.string().nullable(),
    round: z.number().int().nullable(),
    marks: z.array(z.string()),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    next_attempt_at: z.number().int().nullable(),
    printed_at: unix().nullable(),
    reprint_of: z.string().nullable(),
    livemode: z.boolean(),
  }),
);
export type PrintJob = z.output<typeof PrintJobSchema>;

/** The receipts one request printed: a list with no further page. */
export const ReceiptJobsSchema = named(
  'ReceiptJobs',
  z.object({ object: z.literal('list'), data: z.array(PrintJobSchema), has_more: z.literal(false), url: z.string() }),
);

/** A printer; `status` is what the dispatcher last saw (`unknown` before its first job). */
export function presentPrinter(row: PrinterRow, status?: PrinterStatusRow): Printer {
  return {
    id: row.id,
    object: 'printer',
    created: row.created,
    updated: row.updated,
    name: row.name,
    transport: printerTransport(row),
    language: row.language,
    paper_width: row.paper_width,
    stations: printerStations(row),
    prints_receipts: row.prints_receipts === 1,
    cash_drawer: row.cash_drawer === 1,
    backup_printer: row.backup_printer_id,
    is_active: row.is_active === 1,
    status: status
      ? { state: status.state, detail: status.detail, checked_at: status.checked_at }
      : { state: 'unknown', detail: null, checked_at: null },
  };
}

/**
 * The columns a job is presented from: not its document (the preview route renders that),
 * nor the dispatcher's lease bookkeeping.
 */
export const PRESENTED_JOB_COLUMNS = [
  'id', 'created', 'updated', 'kind', 'state', 'printer_id', 'original_printer_id', 'order_id', 'station', 'round', 'marks', 'attempts',
  'last_error', 'next_attempt_at', 'printed_at', 'reprint_of', 'livemode',
] as const satisfies readonly (keyof PrintJobRow)[];

export type ListedPrintJob = Pick<PrintJobRow, (typeof PRESENTED_JOB_COLUMNS)[number]>;

export function presentPrintJob(row: ListedPrintJob): PrintJob {
  return {
    id: row.id,
    object: 'print_job',
    created: row.created,
    updated: row.updated,
    kind: row.kind,
    state: row.state,
    printer: row.printer_id,
    original_printer: row.original_printer_id,
    order: row.order_id,
    station: row.station,
    round: row.round,
    marks: JSON.parse(row.marks) as string[],
    attempts: row.attempts,
    last_error: row.last_error,
    next_attempt_at: row.state === 'queued' ? row.next_attempt_at : null,
    printed_at: row.printed_at,
    reprint_of: row.reprint_of,
    livemode: row.livemode === 1,
  };
}
