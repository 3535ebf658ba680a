/**
 * A second comanda process for the fan-out test: its own server over its own connection to
 * the same database (a PostgreSQL URL, or `dir:<path>` for the hub's SQLite file), sharing
 * nothing in memory with the test process. It prints `{"ready": url}` and then answers JSON
 * commands read line by line from stdin. argv: database, safety poll in ms.
 */
import readline from 'node:readline';
import { openDatabase } from '../../server/db/database.ts';
import { silentLogger } from '../../server/logger.ts';
import { createServer } from '../../server/server.ts';
import { actorFor, placeOrder, setItemStatus } from './fixtures.ts';

const [where, pollMs] = process.argv.slice(2);
const database = await openDatabase(where.startsWith('dir:') ? { dataDir: where.slice(4) } : { databaseUrl: where });
const server = createServer({ database, logger: silentLogger, config: { rateLimit: false, realtime: { pollMs: Number(pollMs) } } });
const { url } = await server.listen(0, '127.0.0.1');
const reply = (msg: unknown) => process.stdout.write(`${JSON.stringify(msg)}\n`);
reply({ ready: url });

for await (const line of readline.createInterface({ input: process.stdin })) {
  const cmd = JSON.parse(line);
  const actor = actorFor(server.services, cmd.restaurantId ?? '');
  if (cmd.op === 'placeOrder') {
    const { order } = await placeOrder(server.services, actor, { lines: cmd.lines });
    reply({ id: cmd.id, orderId: order.id });
  } else if (cmd.op === 'setItemStatus') {
    await setItemStatus(server.services, actor, cmd.orderId, cmd.idx, cmd.status);
    reply({ id: cmd.id });
  } else if (cmd.op === 'close') {
    await server.close();
    reply({ id: cmd.id });
    process.exit(0);
  }
}
