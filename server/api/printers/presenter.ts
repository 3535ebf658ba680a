import type { Selectable } from 'kysely';
import type { PrinterStatusTable } from '../../db/tables/printer-status.table.ts';
import type { PrintJobRow } from '../../domain/printers/jobs.ts';
import { printerStations, printerTransport, type PrinterRow } from '../../domain/printers/printers.ts';

type StatusRow = Selectable<PrinterStatusTable>;

/** A printer; `status` is what the dispatcher last saw (`unknown` before its first job). */
export function presentPrinter(row: PrinterRow, status?: StatusRow) {
  return {
    id: row.id,
    object: 'printer' as const,
    created: row.created,
    updated: row.updated,
    name: row.name,
    transport: printerTransport(row),
    language: row.language,
    paper_width: row.paper_width,
    stations: printerStations(row),
    prints_receipts: row.prints_receipts === 1,
    backup_printer: row.backup_printer_id as string | object | null,
    is_active: row.is_active === 1,
    status: status
      ? { state: status.state, detail: status.detail, checked_at: status.checked_at }
      : { state: 'unknown' as const, detail: null, checked_at: null },
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

export function presentPrintJob(row: ListedPrintJob) {
  return {
    id: row.id,
    object: 'print_job' as const,
    created: row.created,
    updated: row.updated,
    kind: row.kind,
    state: row.state,
    printer: row.printer_id as string | object,
    original_printer: row.original_printer_id as string | object,
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
