import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Plain CommonJS for an eval'd worker: it needs no loader and no app code.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.file);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or locked: the next round catches up
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * A WAL checkpoint copies the log back into the database file and syncs it: milliseconds
 * that, on the connection that commits, stall every request queued behind them. The hub
 * runs them on a worker thread with a connection of its own instead; PASSIVE checkpoints
 * never block the writer, which keeps only a far-off automatic one as a safety net.
 */
export function startCheckpointer(file: string, intervalMs = 250): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, module, intervalMs } });
  // Never keeps the process alive on its own; a failed worker only means the writer checkpoints.
  worker.unref();
  let exited = false;
  worker.on('error', () => {});
  worker.once('exit', () => (exited = true));
  return {
    stop: () =>
      exited
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            worker.once('exit', () => resolve());
            // held now, or the process would end while waiting for it to close
            worker.ref();
            worker.postMessage('stop');
          }),
  };
}
