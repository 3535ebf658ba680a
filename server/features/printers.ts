import { PrintDispatcher } from '../domain/printers/dispatcher.ts';
import { printHook } from '../domain/printers/order-hook.ts';
import { expandables as printerExpandables } from '../api/printers/printers.routes.ts';
import { expandables as jobExpandables } from '../api/printers/jobs.routes.ts';
import type { Feature } from './feature.ts';
import { presentPrintJob } from '../presenters/printers.ts';

declare module '../services.ts' {
  interface Services {
    /** the print queue's worker (printers feature); set in install(), optional only because createServer builds Services before features install */
    printQueue?: PrintDispatcher;
  }
}

/**
 * Kitchen tickets and receipts. Only a hub dispatches: the printers sit on the venue's
 * network. A cloud node queues no ticket for an order (the hub prints it when the order reaches
 * it, marked LATE if it missed it: domain/printers/catch-up.ts); a job asked of it by hand waits.
 */
export const printersFeature: Feature = {
  name: 'printers',
  orderHooks: [printHook],
  expandables: { ...printerExpandables, ...jobExpandables },
  // The printers page follows its jobs and printers live: a job moving from queued to printing to
  // printed or failed, and what a printer answered, as `print_job` and `printer_status` messages.
  noticeTopics: { printers: 'printers:read' },
  install(host) {
    const queue = (host.services.printQueue = new PrintDispatcher(host.services));
    queue.changes.add((c) => {
      const hub = host.services.realtime?.hub;
      if (!hub) return;
      if (c.kind === 'job') hub.notice(c.job.restaurant_id, 'printers', c.job.livemode === 1, 'print_job', presentPrintJob(c.job));
      else hub.notice(c.status.restaurant_id, 'printers', null, 'printer_status', { printer: c.status.printer_id, state: c.status.state, detail: c.status.detail, checked_at: c.status.checked_at });
    });
    host.scheduler.add({
      name: 'print-queue-sweep',
      schedule: '*/5 * * * * *',
      run: async (s) => s.printQueue?.drain(),
    });
  },
  start(host) {
    if (host.services.config.role === 'hub') host.services.printQueue?.start();
  },
  async stop(host) {
    await host.services.printQueue?.stop();
  },
};
