import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);
export const BIN = path.resolve('bin/comanda');
const quiet = { ...process.env, LOG_LEVEL: 'warn' };

/** One `bin/comanda … --json` command as an operator runs it; its JSON answer (exit code 3 included). */
export async function comanda(...args: string[]): Promise<any> {
  try {
    const { stdout } = await run(process.execPath, [BIN, ...args, '--json'], { env: quiet, maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(stdout.trim().split('\n').at(-1)!);
  } catch (err: any) {
    // `sync audit` exits 3 when the sides differ, with the report on stdout
    if (err?.code === 3 && err.stdout) return JSON.parse(String(err.stdout).trim().split('\n').at(-1) ?? '');
    throw new Error(`comanda ${args.join(' ')} failed: ${err?.stderr || err?.message}`);
  }
}

/** A `comanda serve` child process. */
export class ServeProcess {
  /** the last lines it wrote to stderr, to show when a test fails */
  readonly log: string[] = [];
  /** the line it printed when ready (url, port, first_run with the first keys, …) */
  ready: any = null;
  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts `comanda serve ARGS` on a free loopback port (or `port`) and waits until it listens. */
  static async start(args: string[], opts: { port?: number; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<ServeProcess> {
    // a port chosen here can still be taken before the process binds it: then another one
    for (let attempt = 1; ; attempt++) {
      try {
        return await ServeProcess.startOn(args, opts.port ?? (await freePort()), opts);
      } catch (err) {
        if (opts.port !== undefined || attempt >= 3 || !/EADDRINUSE/.test((err as Error).message)) throw err;
      }
    }
  }

  private static async startOn(args: string[], port: number, opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<ServeProcess> {
    // BENCH_PROFILE=DIR (bench/README.md): each serve process writes its CPU profile there when it stops
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : [];
    const child = spawn(process.execPath, [...profile, BIN, 'serve', ...args, '--host', '127.0.0.1', '--port', String(port), '--json'], {
      env: { ...quiet, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const p = new ServeProcess(child, port);
    readline.createInterface({ input: child.stderr! }).on('line', (l) => {
      p.log.push(l);
      if (p.log.length > 200) p.log.shift();
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`comanda serve did not start: ${p.log.slice(-20).join('\n')}`)), opts.timeoutMs ?? 60_000);
      const fail = (err: Error) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(err);
      };
      child.once('exit', (code, signal) => fail(new Error(`comanda serve exited (${code ?? signal}): ${p.log.slice(-20).join('\n')}`)));
      readline.createInterface({ input: child.stdout! }).on('line', (line) => {
        try {
          const ready = JSON.parse(line);
          if (ready.url) {
            p.ready = ready;
            clearTimeout(timer);
            child.removeAllListeners('exit');
            resolve();
          }
        } catch {
          // not the ready line
        }
      });
    });
    return p;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** kill -9: no shutdown, in-flight work is cut wherever it stands */
  kill9(): Promise<void> {
    return this.stop('SIGKILL');
  }

  /** Stops it (SIGTERM: a clean shutdown) and waits for it to exit. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill(signal);
    return exited;
  }
}

// the tests' one wait lives in until.ts; re-exported for the process tests that import it from here
export { until } from './until.ts';

/**
 * Whether the process of this id still runs. One that exited but that nobody has reaped yet
 * (its parent was killed, and its new parent has not waited on it) is a zombie: it has exited.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return true; // no /proc (macOS): kill's answer stands
  }
}
