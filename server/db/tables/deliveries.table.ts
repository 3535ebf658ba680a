import type { Selectable } from 'kysely';

/** The courier side of one delivery order (in-house fleet, or the reference of an external one). */
export interface DeliveriesTable {
  id: string;
  restaurant_id: string;
  order_id: string;
  /** 'in_house' or the name of the external fleet adapter */
  provider: string;
  /** the external fleet's id once it has accepted the job */
  external_id: string | null;
  status: 'awaiting_dispatch' | 'dispatched' | 'picked_up' | 'delivered' | 'cancelled';
  address: string;
  courier_id: string | null;
  courier_name: string | null;
  dispatched_at: number | null;
  picked_up_at: number | null;
  delivered_at: number | null;
  created: number;
  updated: number;
}

/** A row as read. */
export type DeliveryRow = Selectable<DeliveriesTable>;

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    deliveries: true;
  }
}
