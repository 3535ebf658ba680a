import pino from 'pino';

export type Logger = pino.Logger;

/** `toStderr` keeps stdout free for a command's one JSON answer. */
export function createLogger(opts: { level?: string; quiet?: boolean; toStderr?: boolean } = {}): Logger {
  const level = opts.quiet ? 'silent' : (opts.level ?? process.env.LOG_LEVEL ?? 'info');
  return opts.toStderr ? pino({ level }, pino.destination(2)) : pino({ level });
}

export const silentLogger: Logger = pino({ level: 'silent' });
