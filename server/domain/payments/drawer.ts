import type { Executor } from '../../db/records.ts';
import type { Actor } from '../../services.ts';
import { enqueueJob } from '../printers/jobs.ts';
import { receiptPrinters } from '../printers/printers.ts';

/**
 * Opens the cash drawer for a cash payment: a drawer_kick job (the pulse, no paper) on each
 * receipt printer that has a drawer hung on it. Queued in the payment's transaction like
 * any print job, so the drawer opens once the payment is recorded, and only then.
 */
export async function kickCashDrawers(trx: Executor, actor: Actor, live: boolean): Promise<void> {
  const printers = (await receiptPrinters(trx, actor.restaurantId)).filter((p) => p.cash_drawer === 1);
  for (const printer of printers) await enqueueJob(trx, actor, { kind: 'drawer_kick', printer, document: '', live });
}
