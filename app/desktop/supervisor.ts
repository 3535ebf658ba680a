import { EventEmitter } from 'node:events';
import readline from 'node:readline';
import { DEFAULT_BACKOFF, restartDelay, START_BACKOFF, type BackoffOptions } from './backoff.ts';
import type { ChildLike } from './host.ts';

export type ServerState = 'stopped' | 'starting' | 'running' | 'waiting_to_restart' | 'stopping';

/** What `comanda serve --json` prints on its first line. */
export interface ServerReady {
  url: string;
  urls: string[];
  public_url: string;
  port: number;
  pid: number;
  first_run: unknown;
  /** a fresh hub with no owner yet: the code that lets a second device finish setup */
  setup?: { url: string; code: string } | null;
}

/** The hub's own account of why it could not start (server/operator/start-failure.ts). */
export interface StartFailure {
  type: 'start_failure';
  reason: 'port_taken' | 'data_locked' | 'data_unreadable' | 'database_unreadable' | 'disk_full' | 'unknown';
  message: string;
  data_dir: string;
  port: number | null;
  holder: { pid: number; name: string | null } | null;
  backup: { file: string; at: number } | null;
  free_bytes: number | null;
}

export interface CrashRecord {
  at: string;
  pid: number | undefined;
  code: number | null;
  signal: string | null;
  ranForMs: number;
  restartInMs: number;
  /** the last lines the server wrote to stderr */
  lastOutput: string[];
  /** it ended before it was ready: a start that failed */
  failedStart: boolean;
  /** why, when the hub said so before it exited */
  failure: StartFailure | null;
}

/**
 * The supervisor's time. `now()` is the wall clock, only for what is written down (a crash's
 * time); `monotonic()` measures (how long a run lasted, so whether the backoff starts over):
 * a PC's clock stepped while the hub crash-loops (Windows setting the time after a dead CMOS
 * battery) neither reset the backoff to 250 ms (forward) nor made a healthy run look short (back).
 */
export interface Timers {
  now(): number;
  /** milliseconds from an arbitrary origin, never stepped: only differences mean anything */
  monotonic(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  monotonic: () => Number(process.hrtime.bigint()) / 1e6,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface SupervisorOptions {
  spawn(): ChildLike;
  /** one line per crash (the crash log) */
  onCrash?(record: CrashRecord): void;
  /** the server's own log output (stderr) */
  onOutput?(chunk: Buffer): void;
  /** anything the server sends over IPC (status reports) */
  onMessage?(message: unknown): void;
  backoff?: BackoffOptions;
  /**
   * after a start that failed (it never got ready): such a cause (a port taken, a full disk)
   * rarely goes away in a second, so retries slow down to minutes instead of spinning
   */
  startBackoff?: BackoffOptions;
  /** how long a graceful stop may take before the process is killed */
  stopTimeoutMs?: number;
  timers?: Timers;
}

/**
 * Keeps the comanda server running in its own process. It is started, its first stdout
 * line says where it listens; when it dies unasked it is logged and started again after
 * a doubling delay (reset once a run has been healthy for a while). stop() asks it to
 * finish in-flight requests and close the database (an IPC message, or SIGTERM), and
 * kills it only if it does not end in time.
 *
 * Events: 'state' (ServerState), 'ready' (ServerReady), 'crash' (CrashRecord), 'failure'
 * (StartFailure: the hub said why its start failed).
 */
export class ServerSupervisor extends EventEmitter {
  state: ServerState = 'stopped';
  child: ChildLike | null = null;
  ready: ServerReady | null = null;
  crashes = 0;
  restarts = 0;
  private consecutive = 0;
  /** starts in a row that ended before the server was ready */
  failedStarts = 0;
  /** why the last start failed, as the server told us (null when it did not say) */
  failure: StartFailure | null = null;
  private lastExited: ChildLike | null = null;
  /** when the next start is due (ms on the timers' clock), while waiting to restart */
  nextStartAt: number | null = null;
  private startedAt = 0;
  private timer: unknown = null;
  private tail: string[] = [];
  private readonly opts: Required<Omit<SupervisorOptions, 'onCrash' | 'onOutput' | 'onMessage'>> & SupervisorOptions;

  constructor(opts: SupervisorOptions) {
    super();
    this.opts = { backoff: DEFAULT_BACKOFF, startBackoff: START_BACKOFF, stopTimeoutMs: 15_000, timers: realTimers, ...opts };
  }

  /** Starts the server; resolves with where it listens once it says so. */
  start(): Promise<ServerReady> {
    if (this.state === 'stopping') return Promise.reject(new Error('stopping'));
    if (this.state === 'stopped') this.launch();
    return this.whenReady();
  }

  /** The next time the server is ready (at once if it is). */
  whenReady(): Promise<ServerReady> {
    if (this.state === 'running' && this.ready) return Promise.resolve(this.ready);
    return new Promise((resolve, reject) => {
      const onReady = (r: ServerReady) => {
        this.off('stopped', onStopped);
        resolve(r);
      };
      const onStopped = () => {
        this.off('ready', onReady);
        reject(new Error('the server was stopped'));
      };
      this.once('ready', onReady);
      this.once('stopped', onStopped);
    });
  }

  private setState(s: ServerState) {
    this.state = s;
    this.emit('state', s);
  }

  /** Starts again at once when it waits to restart (the status window's "Try again"). */
  retryNow(): void {
    if (this.state !== 'waiting_to_restart') return;
    if (this.timer !== null) this.opts.timers.clearTimeout(this.timer);
    this.restarts++;
    this.launch();
  }

  private launch(): void {
    this.timer = null;
    this.nextStartAt = null;
    this.ready = null;
    this.failure = null;
    this.tail = [];
    this.setState('starting');
    this.startedAt = this.opts.timers.monotonic();
    const child = this.opts.spawn();
    this.child = child;
    if (child.stdout) {
      const lines = readline.createInterface({ input: child.stdout });
      lines.on('line', (line) => {
        if (this.ready || this.child !== child) return;
        try {
          const info = JSON.parse(line) as ServerReady;
          if (typeof info?.url !== 'string') return;
          this.ready = info;
          this.failedStarts = 0;
          this.failure = null;
          if (this.state === 'starting') this.setState('running');
          this.emit('ready', info);
        } catch {
          // not the JSON line (a human message): keep waiting for it
        }
      });
    }
    child.stderr?.on('data', (chunk: Buffer) => {
      this.opts.onOutput?.(chunk);
      this.tail.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (this.tail.length > 20) this.tail.splice(0, this.tail.length - 20);
    });
    child.on('message', (m: any) => {
      // a failing start's reason may arrive just after its exit: it still belongs to that start
      if (m?.type === 'start_failure' && (this.child === child || this.lastExited === child)) {
        this.failure = m as StartFailure;
        this.emit('failure', this.failure);
      }
      this.opts.onMessage?.(m);
    });
    child.on('exit', (code, signal) => this.exited(child, code, signal));
    child.on('error', (err) => {
      this.tail.push(`could not start: ${err.message}`);
      this.exited(child, null, null);
    });
  }

  private exited(child: ChildLike, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    const failedStart = this.ready === null;
    this.child = null;
    this.lastExited = child;
    this.ready = null;
    if (this.state === 'stopping' || this.state === 'stopped') {
      this.setState('stopped');
      this.emit('stopped');
      return;
    }
    const now = this.opts.timers.now();
    const ranForMs = Math.round(this.opts.timers.monotonic() - this.startedAt);
    this.consecutive = ranForMs >= this.opts.backoff.resetAfterMs ? 1 : this.consecutive + 1;
    if (failedStart) this.failedStarts++;
    const delay = failedStart
      ? Math.max(restartDelay(this.consecutive, this.opts.backoff), restartDelay(this.failedStarts, this.opts.startBackoff))
      : restartDelay(this.consecutive, this.opts.backoff);
    this.crashes++;
    const record: CrashRecord = {
      at: new Date(now).toISOString(),
      pid: child.pid,
      code,
      signal,
      ranForMs,
      restartInMs: delay,
      lastOutput: [...this.tail],
      failedStart,
      failure: this.failure,
    };
    this.opts.onCrash?.(record);
    this.emit('crash', record);
    // a listener stopped it (the shell taking an update back): no restart
    if ((this.state as ServerState) === 'stopped') return;
    this.nextStartAt = now + delay;
    this.setState('waiting_to_restart');
    this.timer = this.opts.timers.setTimeout(() => {
      if (this.state !== 'waiting_to_restart') return;
      this.restarts++;
      this.launch();
    }, delay);
  }

  /** Graceful stop: in-flight requests finish and the database closes; killed after stopTimeoutMs. */
  async stop(): Promise<void> {
    if (this.timer !== null) {
      this.opts.timers.clearTimeout(this.timer);
      this.timer = null;
    }
    const child = this.child;
    if (!child) {
      if (this.state !== 'stopped') {
        this.setState('stopped');
        this.emit('stopped');
      }
      return;
    }
    if (this.state === 'stopping') return new Promise((resolve) => this.once('stopped', () => resolve()));
    this.setState('stopping');
    const done = new Promise<void>((resolve) => this.once('stopped', () => resolve()));
    // Windows has no SIGTERM to deliver: the IPC message works everywhere.
    const asked = child.send?.({ type: 'shutdown' }) ?? false;
    if (!asked) child.kill('SIGTERM');
    const killer = this.opts.timers.setTimeout(() => child.kill('SIGKILL'), this.opts.stopTimeoutMs);
    await done;
    this.opts.timers.clearTimeout(killer);
  }
}
