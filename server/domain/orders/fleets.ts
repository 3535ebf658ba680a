import type { Executor } from '../../db/records.ts';
import { updateRecord } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { IN_HOUSE, SANDBOX } from './delivery.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';
import type { DeliveryRow } from '../../db/tables/deliveries.table.ts';

/** What /public/orders/delivery/{id}/track answers (camelCase like the rest of that surface). */
export interface Tracking {
  orderId: string;
  orderNumber: string;
  provider: string;
  status: DeliveryRow['status'];
  address: string;
  courier: { name: string | null; phone: string | null } | null;
  dispatchedAt: number | null;
  pickedUpAt: number | null;
  deliveredAt: number | null;
  /** Unix seconds, when the fleet gives one */
  estimatedArrivalAt: number | null;
  location: { lat: number; lng: number } | null;
}

/**
 * A delivery fleet: the in-house couriers (driven by the order's own moves) or an external
 * courier service reached over HTTP. `dispatch` hands a new job over; `track` resolves its
 * current state.
 */
export interface DeliveryFleet {
  name: string;
  dispatch?(db: Executor, delivery: DeliveryRow, order: OrderRow): Promise<DeliveryRow>;
  track(db: Executor, delivery: DeliveryRow, order: OrderRow): Promise<Tracking>;
}

const base = (d: DeliveryRow, o: OrderRow): Tracking => ({
  orderId: o.id,
  orderNumber: o.order_number,
  provider: d.provider,
  status: d.status,
  address: d.address,
  courier: d.courier_name ? { name: d.courier_name, phone: null } : null,
  dispatchedAt: d.dispatched_at,
  pickedUpAt: d.picked_up_at,
  deliveredAt: d.delivered_at,
  estimatedArrivalAt: null,
  location: null,
});

export const inHouseFleet: DeliveryFleet = {
  name: IN_HOUSE,
  track: async (_db, d, o) => base(d, o),
};

/** What tracks a delivery: a sandbox one only ever its own record, never the configured fleet. */
export const fleetFor = (delivery: DeliveryRow, configured: DeliveryFleet): DeliveryFleet =>
  delivery.provider === SANDBOX ? { name: SANDBOX, track: async (_db, d, o) => base(d, o) } : configured;

const STATUSES: DeliveryRow['status'][] = ['awaiting_dispatch', 'dispatched', 'picked_up', 'delivered', 'cancelled'];
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * An external fleet service speaking a small JSON protocol:
 * `POST {url}/deliveries` {reference, orderNumber, address, customer} → {id, status};
 * `GET {url}/deliveries/{id}` → {id, status, courier:{name,phone}, dispatched_at,
 * picked_up_at, delivered_at, eta, location:{lat,lng}} (times Unix seconds).
 */
export class HttpFleet implements DeliveryFleet {
  readonly name: string;
  constructor(
    readonly url: string,
    private readonly services: Pick<Services, 'tx' | 'clock'>,
    opts: { name?: string; timeoutMs?: number; apiKey?: string } = {},
  ) {
    this.name = opts.name ?? 'external';
    this.timeoutMs = opts.timeoutMs ?? 5_000;
    this.apiKey = opts.apiKey;
  }
  private readonly timeoutMs: number;
  private readonly apiKey?: string;

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
    let res: Response;
    try {
      res = await fetch(this.url.replace(/\/$/, '') + path, {
        method,
        headers: { 'content-type': 'application/json', ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new ApiError('fleet_unavailable', `The delivery fleet could not be reached (${(err as Error).name}).`);
    }
    if (!res.ok) throw new ApiError('fleet_unavailable', `The delivery fleet answered ${res.status}.`);
    return res.json().catch(() => {
      throw new ApiError('fleet_unavailable', 'The delivery fleet answered something that is not JSON.');
    });
  }

  async dispatch(_db: Executor, d: DeliveryRow, o: OrderRow): Promise<DeliveryRow> {
    if (d.external_id) return d;
    const job = await this.call('POST', '/deliveries', {
      reference: o.id,
      orderNumber: o.order_number,
      address: d.address,
      customer: { name: o.customer_name, phone: o.customer_phone },
    });
    if (typeof job?.id !== 'string') throw new ApiError('fleet_unavailable', 'The delivery fleet did not return a job id.');
    const now = Math.floor(this.services.clock.now() / 1000);
    // Only the reference is written here; the network call stays outside any transaction.
    return (await this.services.tx.run((trx) =>
      updateRecord(trx, 'deliveries', { id: d.id, restaurant_id: d.restaurant_id }, { external_id: job.id, updated: now }),
    ))!;
  }

  async track(db: Executor, delivery: DeliveryRow, o: OrderRow): Promise<Tracking> {
    const d = delivery.status === 'cancelled' ? delivery : await this.dispatch(db, delivery, o);
    if (!d.external_id) return base(d, o);
    const job = await this.call('GET', `/deliveries/${encodeURIComponent(d.external_id)}`);
    const status = STATUSES.includes(job?.status) ? (job.status as DeliveryRow['status']) : d.status;
    return {
      ...base(d, o),
      status: d.status === 'cancelled' ? 'cancelled' : status,
      courier: job?.courier ? { name: job.courier.name ?? null, phone: job.courier.phone ?? null } : null,
      dispatchedAt: num(job?.dispatched_at),
      pickedUpAt: num(job?.picked_up_at),
      deliveredAt: num(job?.delivered_at),
      estimatedArrivalAt: num(job?.eta),
      location: job?.location && num(job.location.lat) !== null && num(job.location.lng) !== null ? { lat: job.location.lat, lng: job.location.lng } : null,
    };
  }
}
