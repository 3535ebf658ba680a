import { PrintDispatcher } from '../domain/printers/dispatcher.ts';
import { registerPrintHooks } from '../domain/printers/order-hook.ts';
import type { Feature } from './feature.ts';

declare module '../services.ts' {
  interface Services {
    /** the print queue's worker (printers feature); set in install(), optional only because createServer builds Services before features install */
    printQueue?: PrintDispatcher;
  }
}

registerPrintHooks();

/**
 * Kitchen tickets and receipts. Only a hub dispatches: the printers sit on the venue's
 * network, so a cloud node keeps its jobs queued for the hub instead of trying them.
 */
export const printersFeature: Feature = {
  name: 'printers',
  install(host) {
    host.services.printQueue = new PrintDispatcher(host.services);
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
