import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(opts: { level?: string; quiet?: boolean } = {}): Logger {
  return pino({ level: opts.quiet ? 'silent' : (opts.level ?? process.env.LOG_LEVEL ?? 'info') });
}

export const silentLogger: Logger = pino({ level: 'silent' });
