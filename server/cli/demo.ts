import { systemClock } from '../clock.ts';
import { Transactor } from '../db/transact.ts';
import { provisionRestaurant } from '../domain/restaurants/provision.ts';
import { seedDemo } from '../demo/seed.ts';
import { assembleRegistry } from '../features/assemble.ts';
import { CliError, out, readFlags } from './args.ts';
import { describe } from './init.ts';
import { openFromFlags } from './open.ts';

export async function demoCommand(argv: string[]) {
  const flags = readFlags(argv, {
    'data-dir': 'string',
    'database-url': 'string',
    'history-days': 'string',
    'orders-per-day': 'string',
    slug: 'string',
    json: 'boolean',
  });
  const historyDays = Number(flags['history-days'] ?? 0);
  const ordersPerDay = Number(flags['orders-per-day'] ?? 60);
  if (!Number.isInteger(historyDays) || historyDays < 0 || historyDays > 3650) throw new CliError('--history-days must be 0–3650');
  if (!Number.isInteger(ordersPerDay) || ordersPerDay < 1) throw new CliError('--orders-per-day must be a positive integer');
  const database = await openFromFlags(flags);
  try {
    const tx = new Transactor(database.db);
    const now = systemClock.now();
    const slug = (flags.slug as string | undefined) ?? `trattoria-demo-${Math.floor(now / 1000).toString(36)}`;
    const created = await provisionRestaurant(tx, now, { name: 'Trattoria Demo', slug, plan: 'pro', ownerPassword: true });
    const extra = await seedDemo(tx, { restaurantId: created.restaurant.id, livemode: true, now }, { historyDays, ordersPerDay }, assembleRegistry().hooks);
    out(flags, { ...created, ...extra }, `${describe(created)}\n${JSON.stringify(extra, null, 2)}`);
  } finally {
    await database.close();
  }
}
