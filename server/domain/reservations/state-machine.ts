import type { ReservationsTable } from '../../db/tables/reservations.table.ts';
import { RESERVATION_TRANSITIONS as TRANSITIONS, type ReservationStatus } from '../../model/reservations.ts';
import { ApiError } from '../../errors.ts';
import type { EventType } from '../../model/events.ts';

/** The column stamped with the time a reservation enters a state. */
export const STAMPED_ON_ENTRY: Partial<Record<ReservationStatus, 'arrived_at' | 'seated_at' | 'completed_at' | 'cancelled_at'>> = {
  arrived: 'arrived_at',
  seated: 'seated_at',
  completed: 'completed_at',
  cancelled: 'cancelled_at',
};

export function eventFor(to: ReservationStatus): EventType {
  if (to === 'cancelled') return 'reservation.cancelled';
  if (to === 'no_show') return 'reservation.no_show';
  return 'reservation.updated';
}

/** Refuses a move the table does not allow (409 naming the current status). */
export function checkTransition(current: Pick<ReservationsTable, 'status' | 'starts_at' | 'date' | 'time'>, to: ReservationStatus, nowSec: number): void {
  if (!TRANSITIONS[current.status].includes(to)) {
    const allowed = TRANSITIONS[current.status];
    throw new ApiError(
      'invalid_transition',
      `The reservation is ${current.status}; it cannot move to ${to}.` +
        (allowed.length ? ` From ${current.status} it can move to: ${allowed.join(', ')}.` : ` ${current.status} is final.`),
      'status',
    );
  }
  if (to === 'no_show' && nowSec < current.starts_at) {
    throw new ApiError(
      'invalid_transition',
      `The reservation is ${current.status} for ${current.date} ${current.time}; it can be marked no_show only once that time has passed.`,
      'status',
    );
  }
}
