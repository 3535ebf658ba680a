import type { Executor } from '../../db/records.ts';
import { presentPrinter } from '../../presenters/printers.ts';
import type { PrinterRow } from '../../db/tables/printers.table.ts';

/** Printers as the API shows them, with the last known status of each (one query). */
export async function presentPrinters(db: Executor, restaurantId: string, rows: PrinterRow[]) {
  if (rows.length === 0) return [];
  const statuses = await db
    .selectFrom('printer_status')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where(
      'printer_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const byId = new Map(statuses.map((s) => [s.printer_id, s]));
  return rows.map((r) => presentPrinter(r, byId.get(r.id)));
}
