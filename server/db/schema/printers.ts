import type { PrintJobsTable } from '../tables/print-jobs.table.ts';
import type { PrinterStatusTable } from '../tables/printer-status.table.ts';
import type { PrintersTable } from '../tables/printers.table.ts';

/** Tables of the printers feature: one line per `*.table.ts`. */
export interface PrintersTables {
  printers: PrintersTable;
  print_jobs: PrintJobsTable;
  printer_status: PrinterStatusTable;
}
