import type { Language } from '../../../printers/encoder.ts';
import type { TransportConfig } from '../../../printers/transport.ts';
import type { Executor } from '../../db/records.ts';
import { deleteRecord, insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { assertActiveStation } from '../menu/stations.ts';
import { seconds } from '../time.ts';
import { printerStations } from '../../model/printers.ts';
import type { PrinterRow } from '../../db/tables/printers.table.ts';

export interface PrinterInput {
  name: string;
  transport: TransportConfig;
  language?: Language;
  paper_width?: 58 | 80;
  stations?: string[];
  prints_receipts?: boolean;
  /** a cash drawer hangs on the printer's kick-out port: cash payments open it */
  cash_drawer?: boolean;
  backup_printer?: string | null;
  is_active?: boolean;
}


export async function findPrinter(db: Executor, restaurantId: string, id: string) {
  return db.selectFrom('printers').selectAll().where('restaurant_id', '=', restaurantId).where('id', '=', id).executeTakeFirst();
}

export async function getPrinter(db: Executor, restaurantId: string, id: string, param: string | null = 'id') {
  const p = await findPrinter(db, restaurantId, id);
  if (!p) throw notFound('printer', id, param);
  return p;
}

async function checkStations(db: Executor, restaurantId: string, stations: string[]) {
  if (new Set(stations).size !== stations.length) throw new ApiError('parameter_invalid', 'stations lists the same station twice.', 'stations');
  for (const s of stations) await assertActiveStation(db, restaurantId, s, 'stations');
}

async function checkBackup(db: Executor, restaurantId: string, selfId: string | null, backupId: string | null | undefined) {
  if (!backupId) return null;
  if (backupId === selfId) throw new ApiError('parameter_invalid', 'A printer cannot be its own backup.', 'backup_printer');
  return (await getPrinter(db, restaurantId, backupId, 'backup_printer')).id;
}

export async function createPrinter(trx: Executor, actor: Actor, input: PrinterInput) {
  const stations = input.stations ?? [];
  await checkStations(trx, actor.restaurantId, stations);
  const backup = await checkBackup(trx, actor.restaurantId, null, input.backup_printer);
  const now = seconds(actor);
  return insertRecord(trx, 'printers', {
    id: newId(PREFIXES.printer, actor.now),
    restaurant_id: actor.restaurantId,
    name: input.name,
    transport: JSON.stringify(input.transport),
    language: input.language ?? 'escpos',
    paper_width: input.paper_width ?? 80,
    stations: JSON.stringify(stations),
    prints_receipts: input.prints_receipts ? 1 : 0,
    cash_drawer: input.cash_drawer ? 1 : 0,
    backup_printer_id: backup,
    is_active: input.is_active === false ? 0 : 1,
    created: now,
    updated: now,
  });
}

export async function updatePrinter(trx: Executor, actor: Actor, id: string, input: Partial<PrinterInput>) {
  const current = await getPrinter(trx, actor.restaurantId, id);
  const patch: Record<string, unknown> = { updated: seconds(actor) };
  if (input.name !== undefined) patch.name = input.name;
  if (input.transport !== undefined) patch.transport = JSON.stringify(input.transport);
  if (input.language !== undefined) patch.language = input.language;
  if (input.paper_width !== undefined) patch.paper_width = input.paper_width;
  if (input.stations !== undefined) {
    await checkStations(trx, actor.restaurantId, input.stations);
    patch.stations = JSON.stringify(input.stations);
  }
  if (input.prints_receipts !== undefined) patch.prints_receipts = input.prints_receipts ? 1 : 0;
  if (input.cash_drawer !== undefined) patch.cash_drawer = input.cash_drawer ? 1 : 0;
  if (input.backup_printer !== undefined) patch.backup_printer_id = await checkBackup(trx, actor.restaurantId, id, input.backup_printer);
  if (input.is_active !== undefined) patch.is_active = input.is_active ? 1 : 0;
  return (await updateRecord(trx, 'printers', current, patch))!;
}

/**
 * Removes a printer. Refused while another printer names it as backup (that printer's
 * failover would silently stop); its open jobs end as failed so nothing waits for it.
 */
export async function deletePrinter(trx: Executor, actor: Actor, id: string) {
  const current = await getPrinter(trx, actor.restaurantId, id);
  const dependants = await trx
    .selectFrom('printers')
    .select('id')
    .where('restaurant_id', '=', actor.restaurantId)
    .where('backup_printer_id', '=', id)
    .execute();
  if (dependants.length > 0) {
    throw new ApiError(
      'resource_conflict',
      `Printer '${id}' is the backup of ${dependants.map((d) => d.id).join(', ')}; choose another backup there first.`,
      'id',
    );
  }
  const now = seconds(actor);
  await trx
    .updateTable('print_jobs')
    .set({ state: 'failed', last_error: 'printer deleted', lease_owner: null, lease_until: null, updated: now })
    .where('restaurant_id', '=', actor.restaurantId)
    .where('printer_id', '=', id)
    .where('state', 'in', ['queued', 'printing'])
    .execute();
  await trx.deleteFrom('printer_status').where('printer_id', '=', id).execute();
  await deleteRecord(trx, 'printers', current);
  return current;
}

/** Active printers of a restaurant serving one station. */
/** Whether the restaurant has a printer switched on (tickets and receipts go to none otherwise). */
export async function hasActivePrinter(db: Executor, restaurantId: string): Promise<boolean> {
  const row = await db.selectFrom('printers').select('id').where('restaurant_id', '=', restaurantId).where('is_active', '=', 1).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function printersForStation(db: Executor, restaurantId: string, station: string) {
  const rows = await db.selectFrom('printers').selectAll().where('restaurant_id', '=', restaurantId).where('is_active', '=', 1).orderBy('created').orderBy('id').execute();
  return rows.filter((p) => printerStations(p).includes(station));
}

export async function receiptPrinters(db: Executor, restaurantId: string) {
  return db
    .selectFrom('printers')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where('is_active', '=', 1)
    .where('prints_receipts', '=', 1)
    .orderBy('created')
    .orderBy('id')
    .execute();
}
