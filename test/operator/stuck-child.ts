/**
 * A process whose request thread gets stuck for good, as the hub's did on a backup folder
 * under /proc (Node's recursive mkdir never returns there), with the hub's watchdog and a
 * SIGTERM handler like `comanda serve`'s. argv: the watchdog's limit in ms.
 */
import fs from 'node:fs';
import { startWatchdog } from '../../server/operator/watchdog.ts';

startWatchdog({ stallMs: Number(process.argv[2]) });
process.on('SIGTERM', () => process.exit(0));
// a pipe is written synchronously on Linux: the test reads this only once the thread is (about to be) stuck
process.stdout.write('ready\n');
fs.mkdirSync('/proc/comanda-stuck/backups', { recursive: true });
