import { WebhookDispatcher } from '../domain/webhooks/dispatcher.ts';
import { fanOut } from '../domain/webhooks/deliveries.ts';
import { purgeOldEvents } from '../domain/webhooks/retention.ts';
import type { Feature } from './feature.ts';
import { eventsAfterBatch } from '../../sync/follow-ups/events.ts';

declare module '../services.ts' {
  interface Services {
    /** set by the webhooks feature's install() (optional only because Services is built before features install) */
    webhooks?: WebhookDispatcher;
  }
}

export const WEBHOOK_JOBS = { retrySweep: 'webhooks-retry-sweep', eventRetention: 'webhooks-event-retention' } as const;

export const webhooksFeature: Feature = {
  name: 'webhooks',
  // every event is fanned out to the endpoints that want it, in the event's own transaction,
  // and so is one sync brings from the other side (by the side that sends each endpoint)
  eventHooks: [{ name: 'webhooks-fan-out', plan: (trx, event, side) => fanOut(trx, event, side) }],
  // events another node made go through the event hooks here as a local one does
  remoteBatchHooks: [eventsAfterBatch],
  install(host) {
    const dispatcher = new WebhookDispatcher(host.services);
    host.services.webhooks = dispatcher;
    // The sweep is the safety net behind the commit wake-ups and the retry timer (another
    // process's commits, lapsed claims).
    host.scheduler.add({ name: WEBHOOK_JOBS.retrySweep, schedule: '*/5 * * * * *', run: (_s, signal) => dispatcher.drain(signal) });
    host.scheduler.add({ name: WEBHOOK_JOBS.eventRetention, schedule: '0 23 3 * * *', run: (s) => purgeOldEvents(s) });
  },
  start(host) {
    host.services.webhooks?.start();
  },
  async stop(host) {
    await host.services.webhooks?.stop();
  },
};
