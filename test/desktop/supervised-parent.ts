// A desktop main process stand-in for supervisor-real.test.ts: supervises a real
// `comanda serve`, prints where it listens, then waits to be killed.
import { spawnServerProcess } from '../../app/desktop/server-process.ts';
import { ServerSupervisor } from '../../app/desktop/supervisor.ts';

const [dataDir, port] = process.argv.slice(2);
const supervisor = new ServerSupervisor({
  spawn: () => spawnServerProcess({ dataDir, args: ['--port', port, '--host', '127.0.0.1'], env: { LOG_LEVEL: 'info', MDNS: 'off' } }),
});
const ready = await supervisor.start();
process.stdout.write(`${JSON.stringify(ready)}\n`);
setInterval(() => {}, 60_000);
