/**
 * Tunables of the live feed. Operators rarely touch them; tests shrink the timers.
 * Set through `config.realtime` (see the declaration merged into Config below).
 */
export interface RealtimeOptions {
  /**
   * The resume window: a client that comes back with `since` may be replayed at most this
   * many change-log entries of its restaurant. Anything older gets `resync` and reloads.
   * The change log itself is never pruned by the live feed; if something else prunes it,
   * a `since` below what is still there also gets `resync`.
   */
  resumeMaxChanges: number;
  /** Ping every this often; a socket that has not answered the previous ping is dropped. */
  heartbeatMs: number;
  /** A client whose unsent backlog grows past this many bytes is cut off. */
  maxBufferedBytes: number;
  /** A socket that has not authenticated within this long is closed. */
  authTimeoutMs: number;
  /** Safety poll of the change log, for wake-ups lost (a dropped LISTEN connection, a CLI writing). */
  pollMs: number;
  /** Largest client message accepted. */
  maxMessageBytes: number;
  /**
   * Open sockets one address may hold (an IPv6 /64 counts as one); past it the upgrade is
   * answered 429. A venue's screens behind one NAT are a few dozen at most.
   */
  maxSocketsPerAddress: number;
}

export const RESUME_MAX_CHANGES = 5_000;

export const defaultRealtimeOptions: RealtimeOptions = {
  resumeMaxChanges: RESUME_MAX_CHANGES,
  heartbeatMs: 15_000,
  maxBufferedBytes: 1024 * 1024,
  authTimeoutMs: 10_000,
  pollMs: 2_000,
  maxMessageBytes: 16 * 1024,
  maxSocketsPerAddress: 100,
};

declare module '../config.ts' {
  interface Config {
    realtime?: Partial<RealtimeOptions>;
  }
}

/** change_log rows read per round of the live loop */
export const BATCH_SIZE = 1_000;

/** The NOTIFY channel every cloud process listens on. */
export const NOTIFY_CHANNEL = 'comanda_realtime';

export const SUBPROTOCOL = 'comanda.v1';
