import { HttpFleet, inHouseFleet, type DeliveryFleet } from '../domain/orders/fleets.ts';
import type { Services } from '../services.ts';
import type { Feature } from './feature.ts';
import { expandables as orderExpandables } from '../api/orders/refs.ts';
import { expandables as qrExpandables } from '../api/orders/qr-codes.ts';
import { guestOrderView, qrTokenResolver } from '../realtime/feeds.ts';
import { ordersAfterBatch } from '../../sync/follow-ups/orders.ts';

declare module '../services.ts' {
  interface Services {
    /** the fleet delivery orders go to; null when the venue does not dispatch couriers */
    deliveryFleet?: DeliveryFleet | null;
  }
}

declare module '../config.ts' {
  interface Config {
    /**
     * Who delivers: the in-house couriers (default), an external fleet service over HTTP,
     * or false for no dispatching (a delivery order then needs no address).
     */
    deliveryFleet?: { kind: 'in_house' } | { kind: 'http'; url: string; name?: string; apiKey?: string; timeoutMs?: number } | false;
  }
}

/**
 * Hands new delivery jobs to an external fleet after each commit: one pass at a time, and
 * anything a failed pass left behind is picked up by the next commit or by tracking.
 */
function externalDispatcher(fleet: DeliveryFleet, dispatch: NonNullable<DeliveryFleet['dispatch']>, services: Services) {
  let running = false;
  let again = false;
  const pass = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const pending = await services.db
          .selectFrom('deliveries')
          .selectAll()
          .where('provider', '=', fleet.name)
          .where('external_id', 'is', null)
          .where('status', '=', 'awaiting_dispatch')
          .limit(20)
          .execute();
        for (const d of pending) {
          const order = await services.db.selectFrom('orders').selectAll().where('id', '=', d.order_id).executeTakeFirst();
          if (order) await dispatch.call(fleet, services.db, d, order);
        }
      } while (again);
    } catch (err) {
      services.logger.warn({ err }, 'delivery dispatch failed; will retry on the next change');
    } finally {
      running = false;
    }
  };
  return pass;
}

/** Per server: how to stop its dispatcher's commit subscription. */
const stops = new WeakMap<Services, () => void>();

export const ordersFeature: Feature = {
  name: 'orders',
  expandables: { ...orderExpandables, ...qrExpandables },
  // A QR token follows exactly the orders GET /public/qr/<token>/orders/<id> shows it, as that
  // route shows them (the guest projection, without contact details).
  guestTokenResolvers: { qr: qrTokenResolver },
  guestOrderView,
  // a batch of another node's orders, lines and payments: billed, ticketed and counted here too
  remoteBatchHooks: [ordersAfterBatch],
  install({ services }) {
    const cfg = services.config.deliveryFleet ?? { kind: 'in_house' };
    services.deliveryFleet =
      cfg === false ? null : cfg.kind === 'http' ? new HttpFleet(cfg.url, services, { name: cfg.name, apiKey: cfg.apiKey, timeoutMs: cfg.timeoutMs }) : inHouseFleet;
  },
  start({ services }) {
    const fleet = services.deliveryFleet;
    if (!fleet?.dispatch) return;
    const pass = externalDispatcher(fleet, fleet.dispatch, services);
    const off = services.tx.onCommit(() => void pass());
    stops.set(services, off);
  },
  stop({ services }) {
    stops.get(services)?.();
  },
};
