// node --import tsx bench/kds.ts [seconds] [orders-per-second] [screens]
// The kitchen screens and the guest menu in a real Chromium (bench/screens-measure.ts) against
// a fresh in-memory hub; prints one JSON line. `npm run bench -- screens` runs the same.
import { openDatabase } from '../server/db/database.ts';
import { provisionRestaurant } from '../server/domain/restaurants/provision.ts';
import { silentLogger } from '../server/logger.ts';
import { createServer } from '../server/server.ts';
import { ApiClient } from '../test/helpers/server.ts';
import { measureScreens } from './screens-measure.ts';

const seconds = Number(process.argv[2] ?? 20);
const rate = Number(process.argv[3] ?? 10);
const screens = Number(process.argv[4] ?? 20);

const server = createServer({ database: await openDatabase({ dataDir: ':memory:' }), logger: silentLogger, config: { rateLimit: false, guestRateLimit: false } });
const { url } = await server.listen(0, '127.0.0.1');
try {
  const made = await provisionRestaurant(server.services.tx, Date.now(), { name: 'Bench Bistro', slug: 'bench' });
  console.log(JSON.stringify(await measureScreens(url, new ApiClient(url, made.keys.secret), made.keys.widget, { seconds, rate, screens })));
} finally {
  await server.close();
}
