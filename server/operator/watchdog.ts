import { Worker } from 'node:worker_threads';
import { monotonicMs } from '../clock.ts';

/**
 * A hub whose request thread is stuck (a loop that never ends, a call that never returns)
 * answers nobody, and cannot even run its SIGTERM handler: Node delivers signals to the
 * JavaScript of the main thread only. This watchdog is a thread of its own that the main
 * thread ticks every second; when the ticks stop for `stallMs`, it writes why to stderr and
 * the log file and ends the process (SIGKILL, the only way out of a thread that never yields),
 * so a supervisor starts a fresh hub and a SIGTERM sent meanwhile is honoured at most this late.
 * SQLite's WAL keeps every committed order through such an end.
 *
 * Both threads measure with the process's monotonic clock (CLOCK_MONOTONIC, the same on every
 * thread): on the wall clock a step forward of the PC's time read as a stall and killed a
 * healthy hub, and a step back hid a real one.
 */
const WORKER = `
const fs = require('node:fs');
const { workerData } = require('node:worker_threads');
const beat = new Float64Array(workerData.beat);
const timer = setInterval(() => {
  if (beat[0] === -1) return clearInterval(timer);
  const silent = Number(process.hrtime.bigint()) / 1e6 - beat[0];
  if (silent < workerData.stallMs) return;
  const line = JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, msg: 'the request thread answered nothing for ' + Math.round(silent / 1000) + ' s: ending the hub so it can be started afresh' }) + '\\n';
  try { fs.writeSync(2, line); } catch {}
  if (workerData.logFile) { try { fs.appendFileSync(workerData.logFile, line); } catch {} }
  process.kill(process.pid, 'SIGKILL');
}, Math.min(1000, workerData.stallMs / 4));
`;

export interface Watchdog {
  stop(): Promise<void>;
}

export function startWatchdog(opts: { stallMs: number; logFile?: string }): Watchdog {
  const beat = new Float64Array(new SharedArrayBuffer(8));
  beat[0] = monotonicMs();
  const tick = setInterval(() => (beat[0] = monotonicMs()), Math.min(1000, opts.stallMs / 4));
  tick.unref();
  const worker = new Worker(WORKER, { eval: true, workerData: { beat: beat.buffer, stallMs: opts.stallMs, logFile: opts.logFile } });
  worker.unref();
  return {
    async stop() {
      clearInterval(tick);
      beat[0] = -1;
      await worker.terminate();
    },
  };
}
