import { presentReservation } from '../../presenters/reservations.ts';
import type { Executor } from '../../db/records.ts';
import { updateRecord } from '../../db/records.ts';
import type { ReservationStatus } from '../../model/reservations.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import { emitEvent } from '../events/emit.ts';
import { seconds } from '../time.ts';
import { findReservation } from './reservations.ts';
import { checkTransition, eventFor, STAMPED_ON_ENTRY } from './state-machine.ts';

/**
 * Moves a reservation to `to` along the state table, stamping the time of entry, with its
 * event in the same transaction. Asking for the state it is already in changes nothing and
 * emits nothing (so a retried request is harmless).
 */
export async function setReservationStatus(trx: Executor, actor: Actor, id: string, to: ReservationStatus) {
  const now = seconds(actor);
  const current = await findReservation(trx, actor, id, { forUpdate: true });
  if (!current) throw notFound('reservation', id);
  if (current.status === to) return current;
  checkTransition(current, to, now);
  const stamp = STAMPED_ON_ENTRY[to];
  const row = (await updateRecord(trx, 'reservations', current, { status: to, updated: now, ...(stamp ? { [stamp]: now } : {}) }))!;
  await emitEvent(trx, actor, eventFor(to), presentReservation(row));
  return row;
}

export const cancelReservation = (trx: Executor, actor: Actor, id: string) => setReservationStatus(trx, actor, id, 'cancelled');
