import { createPrinter } from '../domain/printers/printers.ts';
import type { DemoStep } from './step.ts';

const HOST = '127.0.0.1';

/**
 * Three printers on loopback placeholders: kitchen (+ dessert, receipts), bar, grill (backed
 * up by the kitchen). They are created switched off, so a demo hub with no printer attached
 * never retries against empty ports; `npx tsx printers/run-emulator.ts 9100 9101 9102`
 * stands in for them, then PATCH is_active=true.
 */
export const printersDemo: DemoStep = async (tx, actor, _opts, result) => {
  const created = await tx.run(async (trx) => {
    const kitchen = await createPrinter(trx, actor, {
      name: 'Kitchen',
      transport: { type: 'tcp', host: HOST, port: 9100 },
      stations: ['kitchen', 'dessert'],
      prints_receipts: true,
      is_active: false,
    });
    const bar = await createPrinter(trx, actor, {
      name: 'Bar',
      transport: { type: 'tcp', host: HOST, port: 9101 },
      paper_width: 58,
      stations: ['bar'],
      backup_printer: kitchen.id,
      is_active: false,
    });
    const grill = await createPrinter(trx, actor, {
      name: 'Grill',
      transport: { type: 'tcp', host: HOST, port: 9102 },
      stations: ['grill'],
      backup_printer: kitchen.id,
      is_active: false,
    });
    return [kitchen, bar, grill];
  });
  result.printers = created.map((p) => ({ id: p.id, name: p.name, transport: JSON.parse(p.transport), is_active: false }));
};
