import type { ReservationsTable } from '../tables/reservations.table.ts';

/** Tables of the reservations feature: one line per `*.table.ts`. */
export interface ReservationsTables {
  reservations: ReservationsTable;
}
