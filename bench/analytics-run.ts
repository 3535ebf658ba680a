/**
 * The analytics benchmark on its own: builds (or reuses) the big data set in a data
 * directory or PostgreSQL database, serves it on loopback, and times every report while
 * orders keep being written.
 *
 *   node --import tsx bench/analytics-run.ts --data-dir /tmp/comanda-analytics --days 730 --orders-per-day 1400
import { assembleRegistry } from '../server/features/assemble.ts';
 *   node --import tsx bench/analytics-run.ts --database-url postgres://… --days 730 --orders-per-day 1400
 *   node --import tsx bench/analytics-run.ts --embedded-postgres /tmp/comanda-analytics-pg …   (starts one on loopback)
 */
import pg from 'pg';
import { parseArgs } from 'node:util';
import { systemClock } from '../server/clock.ts';
import { openDatabase } from '../server/db/database.ts';
import { Transactor } from '../server/db/transact.ts';
import { seedDemo } from '../server/demo/seed.ts';
import { rebuildRollups } from '../server/domain/analytics/rebuild.ts';
import { createApiKey } from '../server/domain/keys/create-key.ts';
import { provisionRestaurant } from '../server/domain/restaurants/provision.ts';
import { silentLogger } from '../server/logger.ts';
import { createServer } from '../server/server.ts';
import { assembleRegistry } from '../server/features/assemble.ts';
import { buildAnalyticsData } from './analytics-data.ts';
import { measureReports } from './analytics-measure.ts';
import { startEmbeddedPostgres } from '../test/helpers/embedded-postgres.ts';

const { values: flags } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: '/tmp/comanda-analytics-bench' },
    'database-url': { type: 'string' },
    'embedded-postgres': { type: 'string' },
    days: { type: 'string', default: '730' },
    'orders-per-day': { type: 'string', default: '1400' },
    samples: { type: 'string', default: '30' },
  },
});
const days = Number(flags.days);
const perDay = Number(flags['orders-per-day']);
const log = (m: string) => process.stdout.write(`${m}\n`);


/** An embedded PostgreSQL kept in `dir` between runs, so the data set is built once. */
async function embeddedPostgres(dir: string) {
  const server = await startEmbeddedPostgres(['-c', 'shared_buffers=256MB', '-c', 'synchronous_commit=off'], { dataDir: dir });
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'comanda_bench'`);
  if (exists.rowCount === 0) await admin.query('CREATE DATABASE comanda_bench');
  await admin.end();
  return { url: server.url.replace(/\/postgres$/, '/comanda_bench'), stop: server.stop };
}

const embedded = flags['embedded-postgres'] ? await embeddedPostgres(flags['embedded-postgres']) : null;
const database = await openDatabase({ databaseUrl: embedded?.url ?? flags['database-url'] ?? null, dataDir: flags['data-dir'] });
const tx = new Transactor(database.db);
const slug = 'analytics-bench';
let restaurant = await database.db.selectFrom('restaurants').select('id').where('slug', '=', slug).executeTakeFirst();
if (!restaurant) {
  const p = await provisionRestaurant(tx, systemClock.now(), { name: 'Analytics Bench', slug });
  await seedDemo(tx, { restaurantId: p.restaurant.id, livemode: true, now: systemClock.now() }, { historyDays: 0, ordersPerDay: 1 }, assembleRegistry().hooks);
  restaurant = { id: p.restaurant.id };
}
const count = await database.db
  .selectFrom('orders')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('restaurant_id', '=', restaurant.id)
  .executeTakeFirstOrThrow();
if (Number(count.n) < days * perDay * 0.9) {
  log(`building ${days} days × ~${perDay} orders on ${database.dialect}…`);
  const built = await buildAnalyticsData(database.db, tx, { restaurantId: restaurant.id, days, ordersPerDay: perDay, endMs: systemClock.now(), log });
  log(`built ${built.orders} orders, ${built.lines} lines in ${(built.ms / 1000).toFixed(0)} s`);
} else {
  log(`reusing ${count.n} orders`);
  const facts = await database.db.selectFrom('analytics_order_facts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(facts.n) === 0) {
    log('building the roll-ups…');
    const t0 = Date.now();
    await tx.run((trx) => rebuildRollups(trx, restaurant.id));
    log(`roll-ups built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
}
const key = await tx.run((trx) => createApiKey(trx, systemClock.now(), { restaurantId: restaurant.id, kind: 'secret', livemode: true, name: 'bench', grantedBy: 'operator' }));
const server = createServer({ database, clock: systemClock, logger: silentLogger, config: { rateLimit: false } });
const { url } = await server.listen(0, '127.0.0.1');
try {
  const { lines } = await measureReports({ url, key: key.key, services: server.services, restaurantId: restaurant.id, samples: Number(flags.samples) });
  log(`analytics on ${database.dialect}, 90-day ranges:`);
  for (const l of lines) log(l);
} finally {
  await server.close();
  await embedded?.stop();
}
