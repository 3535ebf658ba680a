import pino from 'pino';

export type Logger = pino.Logger;

/** Where log lines go besides the console: anything that takes a line (the hub's rotating log file). */
export interface LineSink {
  write(line: string): void;
}

export type LogFormat = 'json' | 'text';

/**
 * `toStderr` keeps stdout free for a command's one JSON answer. `file`: the same JSON lines
 * also go there (the hub's size-capped `logs/comanda.log`, for the support bundle).
 * The console gets JSON for machines (a pipe, a service manager, log shipping) and readable
 * lines for a person at a terminal: `format`, else LOG_FORMAT, else text on a TTY.
 */
export function createLogger(opts: { level?: string; quiet?: boolean; toStderr?: boolean; file?: LineSink; format?: LogFormat; console?: LineSink } = {}): Logger {
  const level = opts.quiet ? 'silent' : (opts.level ?? process.env.LOG_LEVEL ?? 'info');
  const fd = opts.toStderr ? 2 : 1;
  const format = opts.format ?? (process.env.LOG_FORMAT === 'json' || process.env.LOG_FORMAT === 'text' ? process.env.LOG_FORMAT : (fd === 2 ? process.stderr : process.stdout).isTTY ? 'text' : 'json');
  const raw = opts.console ?? pino.destination(fd);
  const console = format === 'text' ? { write: (line: string) => raw.write(readable(line)) } : raw;
  if (!opts.file || level === 'silent') return pino({ level }, console);
  const file = opts.file;
  return pino({ level }, pino.multistream([{ level: level as pino.Level, stream: console }, { level: level as pino.Level, stream: { write: (line: string) => file.write(line) } }]));
}

export const silentLogger: Logger = pino({ level: 'silent' });

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'v', 'err']);

/** One pino JSON line as a person reads it: `21:04:05 WARN  message  key=value …` (and an error's message). */
export function readable(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line);
  } catch {
    return line;
  }
  const t = new Date(Number(o.time ?? Date.now()));
  const hh = (n: number) => String(n).padStart(2, '0');
  const fields = Object.entries(o)
    .filter(([k]) => !OMIT.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const err = o.err as { message?: string } | undefined;
  if (err?.message) fields.push(`error=${JSON.stringify(err.message)}`);
  return `${hh(t.getHours())}:${hh(t.getMinutes())}:${hh(t.getSeconds())} ${LEVELS[Number(o.level)] ?? o.level} ${o.msg ?? ''}${fields.length ? `  ${fields.join(' ')}` : ''}\n`;
}
