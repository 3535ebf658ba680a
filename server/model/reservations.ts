/**
 * A reservation's statuses and its state machine: the one list, which the table's type, the
 * API's schemas, the presenters and analytics derive from. Pure; the domain's
 * reservations/state-machine.ts refuses a bad move.
 */
export const RESERVATION_STATUSES = ['pending', 'confirmed', 'arrived', 'seated', 'completed', 'cancelled', 'no_show'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/**
 * Every allowed move, in one place. The lifecycle runs pending → confirmed → arrived →
 * seated → completed with no skipping; cancelled from pending, confirmed, arrived; no_show
 * from pending and confirmed once the reserved time has passed. Terminal states (empty
 * lists) never move.
 */
export const RESERVATION_TRANSITIONS: Readonly<Record<ReservationStatus, readonly ReservationStatus[]>> = {
  pending: ['confirmed', 'cancelled', 'no_show'],
  confirmed: ['arrived', 'cancelled', 'no_show'],
  arrived: ['seated', 'cancelled'],
  seated: ['completed'],
  completed: [],
  cancelled: [],
  no_show: [],
};

export const isTerminal = (s: ReservationStatus): boolean => RESERVATION_TRANSITIONS[s].length === 0;

/** Bookings still ahead or in the house (they hold their table): every status that can still move. */
export const ACTIVE_RESERVATION_STATUSES: readonly ReservationStatus[] = RESERVATION_STATUSES.filter((s) => !isTerminal(s));
