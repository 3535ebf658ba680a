import pino from 'pino';
import { RotatingLog } from './operator/rotating-log.ts';

export type Logger = pino.Logger;

/**
 * `toStderr` keeps stdout free for a command's one JSON answer. `file`: the same JSON lines
 * also go to a size-capped log file (the hub's `logs/comanda.log`, for the support bundle).
 */
export function createLogger(opts: { level?: string; quiet?: boolean; toStderr?: boolean; file?: string } = {}): Logger {
  const level = opts.quiet ? 'silent' : (opts.level ?? process.env.LOG_LEVEL ?? 'info');
  const console = opts.toStderr ? pino.destination(2) : pino.destination(1);
  if (!opts.file || level === 'silent') return pino({ level }, console);
  const log = new RotatingLog(opts.file, 10 * 1024 * 1024, 3);
  return pino({ level }, pino.multistream([{ level: level as pino.Level, stream: console }, { level: level as pino.Level, stream: { write: (line: string) => log.write(line) } }]));
}

export const silentLogger: Logger = pino({ level: 'silent' });
