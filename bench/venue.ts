import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../server/db/database.ts';
import { seedDemo } from '../server/demo/seed.ts';
import { provisionRestaurant } from '../server/domain/restaurants/provision.ts';
import { silentLogger } from '../server/logger.ts';
import { createServer } from '../server/server.ts';
import { ApiClient } from '../test/helpers/server.ts';
import { startBaseline } from './baseline.ts';
import { load } from './load.ts';
import type { BenchContext } from './scenario.ts';

/**
 * The bench's venue: the real server on a fresh SQLite file under a temporary directory,
 * listening on loopback, with the demo menu and no history. `close` stops it and removes
 * the directory.
 */
export async function openBenchVenue(): Promise<{ ctx: BenchContext; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-bench-'));
  const database = await openDatabase({ dataDir: dir });
  // every bench screen connects from 127.0.0.1: the per-address socket cap (100) would refuse them
  const server = createServer({ database, logger: silentLogger, config: { rateLimit: false, guestRateLimit: false, realtime: { maxSocketsPerAddress: 1_000 } } });
  const { url } = await server.listen(0, '127.0.0.1');
  const now = Date.now();
  const r = await provisionRestaurant(server.services.tx, now, { name: 'Bench Bistro', slug: 'bench', ownerPassword: true });
  await seedDemo(server.services.tx, { restaurantId: r.restaurant.id, livemode: true, now }, { historyDays: 0, ordersPerDay: 0 }, server.services.registry.hooks);
  const ctx: BenchContext = {
    url,
    keys: r.keys,
    restaurantId: r.restaurant.id,
    services: server.services,
    api: new ApiClient(url, r.keys.secret),
    databaseFile: path.join(dir, 'comanda.sqlite'),
    async baselineRps(bytes: number, connections = 32) {
      const base = await startBaseline({ data: 'x'.repeat(Math.max(0, bytes - 11)) });
      try {
        return (await load(base.url, { path: '/', connections })).rps;
      } finally {
        await base.close();
      }
    },
  };
  return {
    ctx,
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
