import http from 'node:http';
import https from 'node:https';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import { setClockOffset } from '../server/db/hlc.ts';
import { measureOffset, redateAhead, withPushLock } from './clock.ts';
import { monotonicMs } from '../server/clock.ts';
import type { DB } from '../server/db/schema.ts';
import type { SyncLinkTable } from '../server/db/schema/sync.ts';
import { setWebhooksHandedOff } from '../server/domain/webhooks/hand-off.ts';
import type { Services } from '../server/services.ts';
import { applyChanges } from './apply.ts';
import { countLog, readLog, type Page } from './changes.ts';
import { isSealed, openCredential, sealCredential } from './credentials.ts';
import { currentEpoch, rotateEpoch } from './epoch.ts';
import { PROTOCOL_VERSION, type CloudPosition, type WireChange } from './protocol.ts';
import { repairWithCloud, saveRepairState } from './repair.ts';
import { STREAMED_HEADER } from './wire.ts';

export type Link = SyncLinkTable;

/** A refusal from the cloud (4xx): retrying the same thing soon would only be refused again. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null,
  ) {
    super(message);
  }
}

/** entries per push: as many as the cloud takes in one batch (MAX_BATCH_ENTRIES), so a long backlog takes half the round trips and commits */
export const PUSH_BATCH = 2000;
export const PULL_BATCH = 500;
const PULL_WAIT_MS = 20_000;
/**
 * A silent line (packets lost, not refused: a NAT that dropped its state, a cable pulled
 * upstream) never fails a request by itself; only silence tells. So every request to the
 * cloud is bounded by how long the socket may stay silent, and the long poll (and a push,
 * while the cloud applies it) asks the cloud for a heartbeat byte every HEARTBEAT_MS: the hub
 * knows within IDLE_MS that the line is dead, instead of at the end of the wait and a timeout.
 */
export const HEARTBEAT_MS = 2_000;
/** silence after which a request with heartbeats (pull, push) or a hello is dead */
const IDLE_MS = 6_000;
/** the audit-and-repair: the cloud hashes the restaurant's rows before it answers, without heartbeats */
const REPAIR_IDLE_MS = 60_000;
/** While the line is down, a probe starts this often (each on a new connection)… */
const PROBE_EVERY_MS = 1_000;
/** …and waits this long for its answer; several overlap, so a line that returns is seen within PROBE_EVERY_MS. */
const PROBE_IDLE_MS = 4_000;
const MAX_BACKOFF_MS = 4_000;
/** The audit-and-repair runs after every (re)connection once caught up, and at least this often. */
export const REPAIR_EVERY_MS = 10 * 60_000;
/** …and this often while the sides are not yet the same. */
const REPAIR_RETRY_MS = 20_000;

/** The line to the cloud failed: refused, reset, cut, or silent for too long. Nothing came back. */
export class LineDown extends Error {
  constructor(
    message: string,
    /** the socket's error code (ECONNREFUSED, ECONNRESET, ETIMEDOUT, …), for the CLI's one-line advice */
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** How a request goes out: the hub's own connection pool (dropped with a dead line) and its abort. */
export interface LineOpts {
  signal?: AbortSignal;
  /** false: a connection of its own (a probe must not ride a pooled socket of a dead line) */
  agent?: http.Agent | false;
}

/** One request to the cloud: gzip both ways, the credential in a header, bounded in time and in silence. */
export async function callCloud<T>(
  cloudUrl: string,
  path: string,
  body: unknown,
  opts: LineOpts & { credential?: string; timeoutMs?: number; idleMs?: number } = {},
): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-encoding': 'gzip', 'accept-encoding': 'gzip' };
  if (opts.credential) headers.authorization = `Bearer ${opts.credential}`;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const signals = [AbortSignal.timeout(timeoutMs), ...(opts.signal ? [opts.signal] : [])];
  const res = await post(new URL(`/sync/v1${path}`, cloudUrl), headers, gzipSync(Buffer.from(JSON.stringify(body)), { level: 1 }), {
    signal: AbortSignal.any(signals),
    idleMs: Math.min(opts.idleMs ?? timeoutMs, timeoutMs),
    agent: opts.agent,
  });
  const raw = res.body;
  let status = res.status;
  const text = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`the cloud answered ${res.status} without JSON`);
  }
  // a streamed answer (heartbeats) went out as 200 before its outcome was known: the body says
  if (res.streamed && parsed?.error && typeof parsed.status === 'number') status = parsed.status;
  if (status < 200 || status >= 300) {
    const e = parsed?.error ?? {};
    if (status >= 400 && status < 500) throw new Refused(status, e.code ?? 'unknown', e.message ?? `HTTP ${status}`, e.param ?? null);
    throw new Error(`the cloud answered ${status}: ${e.message ?? ''}`);
  }
  return parsed as T;
}

/** The hub's credential for its cloud, opened from the link's sealed copy. */
export const credentialOf = (services: Services, link: Link): string => openCredential(services, link.credential);

/** A credential stored in the clear (before they were sealed) is sealed in place. */
async function sealStoredCredential(services: Services, link: Link): Promise<void> {
  if (isSealed(link.credential)) return;
  await services.db.updateTable('sync_link').set({ credential: sealCredential(services, link.credential) }).where('id', '=', 1).where('credential', '=', link.credential).execute();
}

/**
 * One POST with node's own client. (fetch's, given a connection the other end accepts and
 * closes at once, waits for its timeout instead of failing: a link or a first sync on such a
 * line hung for 30 s, and a CLI with nothing else to wait on exited silently.) Any failure to
 * get an answer is a LineDown; a socket silent for `idleMs` (connecting included) is one.
 */
function post(url: URL, headers: Record<string, string>, body: Buffer, opts: { signal: AbortSignal; idleMs: number; agent?: http.Agent | false }): Promise<{ status: number; streamed: boolean; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    let silent: LineDown | null = null;
    const fail = (err: any) => {
      if (silent) return reject(silent);
      if (opts.signal.aborted) {
        const why = opts.signal.reason;
        const code = why?.name === 'TimeoutError' ? 'ETIMEDOUT' : 'ABORT_ERR';
        return reject(new LineDown(code === 'ETIMEDOUT' ? 'no answer from the cloud in time' : 'the request was stopped', code, { cause: why }));
      }
      const code = String(err?.code ?? err?.name ?? 'ECONNRESET');
      reject(err instanceof LineDown ? err : new LineDown(String(err?.message ?? err).split('\n')[0], code, { cause: err }));
    };
    const req = lib.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, signal: opts.signal, timeout: opts.idleMs, ...(opts.agent !== undefined ? { agent: opts.agent } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve({ status, streamed: res.headers[STREAMED_HEADER.toLowerCase()] === '1', body: Buffer.concat(chunks) });
        });
        res.on('error', fail);
        res.on('aborted', () => fail(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' })));
      },
    );
    req.on('timeout', () => {
      silent = new LineDown(`no answer from the cloud for ${Math.round(opts.idleMs / 1000)} s (a silent line?)`, 'ETIMEDOUT');
      req.destroy(silent);
    });
    req.on('error', fail);
    req.end(body);
  });
}

export const readLink = (db: Kysely<DB>) => db.selectFrom('sync_link').selectAll().where('id', '=', 1).executeTakeFirst() as Promise<Link | undefined>;

/**
 * The hub's side of a link: it always dials out. Two loops run beside service, never in its
 * way: push sends this hub's own changes after what the cloud acknowledged, pull long-polls
 * the cloud's changes and applies each page in one transaction with its cursor. A dead or
 * slow cloud costs the hub a status line; a refusal (4xx) is kept for the status and retried
 * slowly; anything else is retried with backoff.
 */
export class SyncClient {
  private stopped = false;
  private abort = new AbortController();
  private loops: Promise<void>[] = [];
  private wake: (() => void) | null = null;
  /**
   * A unit committed since the push last read the log. A commit while a push is in flight
   * finds no sleep to wake: without this, its change waited for the next round (up to 5 s).
   */
  private committed = false;
  private offCommit: (() => void) | null = null;
  /** in memory, for the status; the row keeps what another process (the CLI) should see */
  connected = false;
  lastError: string | null = null;
  private persistedConnected: boolean | null = null;
  private pendingPull = 0;
  private pulledOnce = false;
  /**
   * This process has pulled everything the cloud held at its last answer: devices that worked
   * through the cloud while the hub was down may come back (docs/contributors/two-homes.md).
   */
  get caughtUp(): boolean {
    return this.connected && this.pulledOnce && this.pendingPull === 0;
  }
  private helloDone: Promise<void> | null = null;
  /** connections made so far (a repair follows each one) */
  private connections = 0;
  private pushIdle = false;
  private handedOff: string | null = null;
  /**
   * The line: this hub's own pool of connections to the cloud and an abort for what is in
   * flight on it. When one request finds the line dead, the others on it are dead too (a
   * push on a NAT mapping that was dropped): all are ended, the pool is dropped, and the
   * next requests start on new connections once a probe gets through (`lineBack`).
   */
  private agent = new http.Agent({ keepAlive: true });
  private line = new AbortController();
  private gen = 0;
  private probing: Promise<void> | null = null;

  constructor(private readonly services: Services) {}

  get db() {
    return this.services.db;
  }

  /** Starts syncing when the hub is linked (now, or later by `comanda sync link`). */
  start(): void {
    this.offCommit = this.services.tx.onCommit(() => {
      this.committed = true;
      this.wake?.();
    });
    this.loops.push(this.run());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.offCommit?.();
    this.wake?.();
    await Promise.allSettled(this.loops);
    this.agent.destroy();
  }

  private lineOpts(): LineOpts {
    return { signal: AbortSignal.any([this.abort.signal, this.line.signal]), agent: this.agent };
  }

  /** The line is dead: end everything in flight on it and forget its connections. */
  private dropLine(): void {
    this.gen++;
    this.line.abort();
    this.line = new AbortController();
    this.agent.destroy();
    this.agent = new http.Agent({ keepAlive: true });
  }

  /** Resolves once the cloud answers on a new connection (or sync stops), shared by the loops. */
  private lineBack(): Promise<void> {
    this.probing ??= this.probe().finally(() => (this.probing = null));
    return this.probing;
  }

  /**
   * Probes start every PROBE_EVERY_MS and overlap (each waits up to PROBE_IDLE_MS), so a line
   * that comes back is used within about a second, however long the one before it hangs on a
   * silent line. Any answer counts, a refusal included: it came back over the line.
   */
  private probe(): Promise<void> {
    return new Promise((resolve) => {
      let done = false;
      const inFlight = new Set<AbortController>();
      const finish = () => {
        if (done) return;
        done = true;
        clearInterval(timer);
        for (const a of inFlight) a.abort();
        this.abort.signal.removeEventListener('abort', finish);
        resolve();
      };
      const one = async () => {
        const link = await readLink(this.db).catch(() => undefined);
        if (done) return;
        if (!link) return finish(); // unlinked: the loops find out themselves
        const a = new AbortController();
        inFlight.add(a);
        try {
          await callCloud(link.cloud_url, '/ping', { protocol: PROTOCOL_VERSION }, { signal: a.signal, agent: false, timeoutMs: PROBE_IDLE_MS });
          finish();
        } catch (err) {
          if (err instanceof Refused) finish();
        } finally {
          inFlight.delete(a);
        }
      };
      const timer = setInterval(() => void one(), PROBE_EVERY_MS);
      this.abort.signal.addEventListener('abort', finish);
      void one();
    });
  }

  private sleep(ms: number, wakeable = false): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        if (this.wake === done) this.wake = null;
        this.abort.signal.removeEventListener('abort', done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.abort.signal.addEventListener('abort', done);
      if (wakeable) this.wake = done;
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const link = await readLink(this.db).catch(() => undefined);
      if (!link) {
        // unlinked (or never linked): this hub sends its own webhooks
        if (this.handedOff) setWebhooksHandedOff(this.db, this.handedOff, false);
        this.handedOff = null;
        this.connected = false;
        await this.sleep(2000);
        continue;
      }
      this.handedOff = link.restaurant_id;
      await sealStoredCredential(this.services, link).catch((err) => this.services.logger.warn({ err: err?.message }, 'sync: could not seal the stored credential'));
      setWebhooksHandedOff(this.db, link.restaurant_id, true);
      setClockOffset(this.db, Number(link.clock_offset_ms));
      await Promise.all([this.loop('push', () => this.pushOnce()), this.loop('pull', () => this.pullOnce()), this.repairLoop()]);
    }
  }

  /** Runs one side until stopped or unlinked; `once` says whether there is more to do at once. */
  private async loop(name: string, once: () => Promise<boolean>): Promise<void> {
    let backoff = 500;
    let failures = 0;
    while (!this.stopped) {
      const gen = this.gen;
      try {
        const more = await once();
        backoff = 500;
        failures = 0;
        if (!more && name === 'push' && !this.committed) await this.sleep(5000, true);
      } catch (err) {
        if (this.stopped) return;
        if (err instanceof Unlinked) return;
        failures++;
        // ended because another request found the line dead: that one reported it
        if (!(err instanceof LineDown && gen !== this.gen)) await this.fail(err);
        if (err instanceof Refused) {
          await this.sleep(30_000);
          continue;
        }
        if (err instanceof LineDown) {
          if (gen === this.gen) this.dropLine();
          await this.lineBack();
          // the line answers a probe but this request keeps failing: do not spin on it
          if (failures === 1) continue;
        }
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  private async fail(err: unknown): Promise<void> {
    this.connected = false;
    this.helloDone = null;
    const msg = err instanceof Refused ? `${err.code}: ${err.message}` : `cloud unreachable: ${(err as Error)?.message ?? err}`;
    this.lastError = msg;
    await this.db
      .updateTable('sync_link')
      .set({ connected: 0, last_error: msg, refused: err instanceof Refused ? err.code : null })
      .where('id', '=', 1)
      .execute()
      .catch(() => {});
    this.persistedConnected = false;
    if (!(err instanceof Refused)) this.services.logger.debug({ err: msg }, 'sync: cloud not reachable');
    else this.services.logger.warn({ code: err.code }, 'sync: the cloud refused this hub');
  }

  private async current(): Promise<Link> {
    const link = await readLink(this.db);
    if (!link) throw new Unlinked();
    return link;
  }

  /** Says hello once per connection: protocol, identities, where the cloud stands. */
  private ensureHello(): Promise<void> {
    this.helloDone ??= hello(this.services, this.lineOpts()).then(
      () => {
        // the cloud answers CORS for the origins of the hub's devices (two homes)
        sendOrigins(this.services).catch((err) => this.services.logger.debug({ err }, 'sync: the cloud did not take the hub’s origins'));
      },
      (err) => {
        this.helloDone = null;
        throw err;
      },
    );
    return this.helloDone;
  }

  private async pushOnce(): Promise<boolean> {
    await this.ensureHello();
    // what commits from here on is read by this push or wakes the next one
    this.committed = false;
    const link = await this.current();
    const pushed = await pushPage(this.services, link, this.lineOpts(), { overlap: true });
    await this.succeeded();
    this.pushIdle = !pushed.more && pushed.changes.length === 0;
    return pushed.more;
  }

  private async pullOnce(): Promise<boolean> {
    await this.ensureHello();
    const link = await this.current();
    const page = await pullPage(this.services, link, { ...this.lineOpts(), waitMs: PULL_WAIT_MS, heartbeatMs: HEARTBEAT_MS });
    this.pendingPull = page.pending;
    this.pulledOnce = true;
    await this.succeeded();
    return true;
  }

  private async succeeded(): Promise<void> {
    if (!this.connected) this.connections++;
    this.connected = true;
    this.lastError = null;
    if (this.persistedConnected !== true) {
      await this.db.updateTable('sync_link').set({ connected: 1, last_error: null, refused: null }).where('id', '=', 1).execute();
      this.persistedConnected = true;
    }
  }

  /**
   * The audit-and-repair (sync/repair.ts), beside push and pull: after each connection once
   * both logs are exchanged, and every REPAIR_EVERY_MS. Whatever the change log could not
   * bring together is found and mended here, without a person.
   */
  private async repairLoop(): Promise<void> {
    let done = 0;
    let lastAt = 0;
    let every = REPAIR_EVERY_MS;
    while (!this.stopped) {
      await this.sleep(1000);
      if (this.stopped) return;
      const link = await readLink(this.db).catch(() => undefined);
      if (!link) return;
      if (!this.connected || !this.pushIdle || this.pendingPull > 0) continue;
      if (done === this.connections && monotonicMs() - lastAt < every) continue;
      done = this.connections;
      lastAt = monotonicMs();
      try {
        every = (await this.repairNow(link)).state === 'in_sync' ? REPAIR_EVERY_MS : REPAIR_RETRY_MS;
      } catch (err) {
        every = REPAIR_RETRY_MS;
        if (this.stopped) return;
        // the line went (the next connection runs it again) or the cloud refused: push and pull report it
        this.services.logger.warn({ err: (err as Error)?.message }, 'sync: the audit-and-repair did not finish');
      }
    }
  }

  /** One audit-and-repair now; its outcome is kept on the link for the status. */
  async repairNow(link?: Link) {
    const l = link ?? (await this.current());
    const call = <T>(path: string, body: unknown) => callCloud<T>(l.cloud_url, path, body, { credential: credentialOf(this.services, l), ...this.lineOpts(), timeoutMs: 120_000, idleMs: REPAIR_IDLE_MS });
    return repairWithCloud(this.services, l, call, (s) => saveRepairState(this.db, { table: 'sync_link' }, s, this.services.clock.now()));
  }

  /** The cloud's changes known to wait beyond the last page (0 when the hub is caught up). */
  get waitingToPull(): number {
    return this.pendingPull;
  }
}

class Unlinked extends Error {}

/**
 * Hello: the cloud says where it stands. A cloud restored from a backup (a new identity)
 * is pulled anew; a hub whose log no longer holds what the cloud acknowledged (it was
 * restored from a backup) takes a new identity and offers everything again; the clock
 * offset to the cloud is measured and kept, so this hub's stamps follow the cloud's time.
 */
export async function hello(services: Services, line: LineOpts = {}): Promise<CloudPosition> {
  const { db } = services;
  await ahead.drop(db);
  const link = await readLink(db);
  if (!link) throw new Unlinked();
  const epoch = await currentEpoch(db);
  const sent = services.clock.now();
  const pos = await callCloud<CloudPosition>(
    link.cloud_url,
    '/hello',
    {
      protocol: PROTOCOL_VERSION,
      epoch,
      cloud_epoch: link.cloud_epoch,
      pulled: { after: Number(link.pull_cursor), op_id: link.pull_op_id },
      pushed_through: Number(link.push_cursor),
    },
    { credential: credentialOf(services, link), ...line, idleMs: IDLE_MS },
  );
  const back = services.clock.now();
  if (pos.queue_ms) cloudQueueMs.set(db, pos.queue_ms);
  else cloudQueueMs.delete(db);
  const offset = await measureOffset(services, { sent, back, cloudNow: pos.now, held: false });
  const patch: Partial<Link> = { clock_offset_ms: offset, cloud_epoch: pos.cloud_epoch, connected: 1, last_error: null, refused: null };
  if (link.cloud_epoch && link.cloud_epoch !== pos.cloud_epoch) {
    // a new cloud identity (the cloud was restored): pull it all again
    patch.pull_cursor = 0;
    patch.pull_op_id = null;
  }
  if (pos.cursor > 0) {
    const mine = await db.selectFrom('change_log').select('op_id').where('origin', '=', epoch).where('origin_seq', '=', pos.cursor).executeTakeFirst();
    const node = await db.selectFrom('node_state').select('compacted_through').where('id', '=', 1).executeTakeFirstOrThrow();
    const lostCompacted = pos.cursor < Number(link.push_cursor) && Number(node.compacted_through) > pos.cursor;
    if (!mine || mine.op_id !== pos.cursor_op_id || lostCompacted) {
      services.logger.warn({ cursor: pos.cursor }, 'sync: this hub’s log differs from what the cloud holds; re-syncing under a new identity');
      await rotateEpoch(db);
      return hello(services, line);
    }
  }
  patch.push_cursor = pos.cursor;
  await db.updateTable('sync_link').set(patch).where('id', '=', 1).execute();
  // what this hub stamped while its clock ran ahead, and the cloud does not hold yet
  await withPushLock(db, async () => {
    // a page read ahead before the re-dating carries the old stamps
    await ahead.drop(db);
    return redateAhead(services, link.restaurant_id, pos.cursor);
  });
  return pos;
}

/**
 * Sends one page of this hub's own changes; the cursor moves only on the cloud's answer. With
 * `overlap` (the serve loop, a link's first sync) and a cloud that holds a page arriving
 * before its predecessor (`queue_ms`), the next page goes out as soon as it is read, before
 * this one is answered, and the next call takes its answer: the cloud reads and checks one
 * page while it applies the one before, with no pause between two pages.
 */
export async function pushPage(services: Services, link: Link, line: LineOpts = {}, opts: { overlap?: boolean } = {}): Promise<Page> {
  const out = await withPushLock(services.db, () => pushLocked(services, link, line, opts.overlap === true));
  if (!('again' in out)) return out;
  // out of step (a lost answer, a restore), or stamps beyond the cloud's bound (this hub's
  // clock jumped): hello measures the clock, re-dates and finds where both stand, then push resumes
  await hello(services, line);
  return { ...out.again, more: true };
}

/** A push on its way: its page, where it starts, and the cloud's answer to come. */
interface Sent {
  page: Page;
  after: number;
  at: number;
  /** sent before the one before it was answered */
  early: boolean;
  answer: Promise<CloudPosition>;
  abort: AbortController;
}

async function pushLocked(services: Services, link: Link, line: LineOpts, overlap: boolean): Promise<Page | { again: Page }> {
  const { db } = services;
  const epoch = await currentEpoch(db);
  const after = Number(link.push_cursor);
  const readPage = (from: number) => readLog(db, { restaurantId: link.restaurant_id, after: from, origin: epoch, limit: PUSH_BATCH });
  const send = (page: Page, from: number, queueMs?: number): Sent => {
    const abort = new AbortController();
    const at = services.clock.now();
    const answer = backlogAfter(services, link, epoch, from, page).then((pending) =>
      callCloud<CloudPosition>(
        link.cloud_url,
        '/push',
        { protocol: PROTOCOL_VERSION, epoch, after: from, changes: page.changes, pending, heartbeat_ms: HEARTBEAT_MS, ...(queueMs ? { wait_ms: queueMs } : {}) },
        {
          credential: credentialOf(services, link),
          ...line,
          signal: line.signal ? AbortSignal.any([line.signal, abort.signal]) : abort.signal,
          idleMs: IDLE_MS,
          // an early page's answer also waits for the page before it
          ...(queueMs ? { timeoutMs: queueMs + 30_000 } : {}),
        },
      ),
    );
    answer.catch(() => {}); // awaited by whoever takes it; one dropped unheard is no error
    return { page, after: from, at, early: queueMs !== undefined, answer, abort };
  };
  let out = await ahead.takeSent(db, epoch, after);
  if (!out) {
    const page = (await ahead.take(db, epoch, after)) ?? (await readPage(after));
    if (page.changes.length === 0) return page;
    out = send(page, after);
  }
  const { page } = out;
  if (page.more) {
    const queueMs = overlap ? cloudQueueMs.get(db) : undefined;
    // the next page is read (and, to a cloud that holds it, sent) while the cloud applies this one
    if (queueMs) ahead.startSent(db, epoch, page.last, async () => {
      const next = await readPage(page.last);
      return next.changes.length > 0 ? send(next, page.last, queueMs) : null;
    });
    else ahead.start(db, epoch, page.last, () => readPage(page.last));
  }
  let pos: CloudPosition;
  try {
    try {
      pos = await out.answer;
    } catch (err) {
      // an early page refused as a gap (a process from before behind the balancer): again, in turn
      if (!(out.early && err instanceof Refused && err.code === 'sync_cursor_mismatch' && err.param === 'gap')) throw err;
      await ahead.drop(db);
      out = send(page, after);
      pos = await out.answer;
    }
  } catch (err) {
    await ahead.drop(db);
    if (err instanceof Refused && (err.code === 'sync_cursor_mismatch' || (err.code === 'sync_batch_invalid' && err.param === 'hlc'))) return { again: page };
    throw err;
  }
  // an early page's answer came at the end of its wait, not halfway
  await measureOffset(services, { sent: out.at, back: services.clock.now(), cloudNow: pos.now, held: out.early });
  await db
    .updateTable('sync_link')
    .set({ push_cursor: pos.cursor, last_synced_at: Math.floor(services.clock.now() / 1000) })
    .where('id', '=', 1)
    .execute();
  return page;
}

/** How long each hub's cloud holds an early push (`queue_ms` of its last hello); none: it does not. */
const cloudQueueMs = new WeakMap<object, number>();

/**
 * The next page of a backlog, read (or read and sent) while the cloud applies the page before
 * it: taken by the next push only if that push starts where the page starts, under the same
 * identity. Only hello changes unsent entries (it re-dates them) or where the push starts: it
 * drops the page, and ends a push sent early (the cloud may still apply it: its op ids and
 * cursor keep that once; the next hello or push learns where the cloud stands).
 */
const ahead = {
  pages: new WeakMap<object, { epoch: string; after: number; page: Promise<Page | null> }>(),
  sent: new WeakMap<object, { epoch: string; after: number; push: Promise<Sent | null> }>(),
  start(db: Kysely<DB>, epoch: string, after: number, read: () => Promise<Page>): void {
    this.pages.set(db, { epoch, after, page: read().catch(() => null) });
  },
  startSent(db: Kysely<DB>, epoch: string, after: number, send: () => Promise<Sent | null>): void {
    this.sent.set(db, { epoch, after, push: send().catch(() => null) });
  },
  async take(db: Kysely<DB>, epoch: string, after: number): Promise<Page | null> {
    const page = this.pages.get(db);
    this.pages.delete(db);
    return page && page.epoch === epoch && page.after === after ? page.page : null;
  },
  async takeSent(db: Kysely<DB>, epoch: string, after: number): Promise<Sent | null> {
    const sent = this.sent.get(db);
    if (!sent) return null;
    if (sent.epoch === epoch && sent.after === after) {
      this.sent.delete(db);
      return sent.push;
    }
    await this.dropSent(db);
    return null;
  },
  /** Forgets what was read ahead and ends a push sent early, once it has settled. */
  async drop(db: Kysely<DB>): Promise<void> {
    this.pages.delete(db);
    await this.dropSent(db);
  },
  async dropSent(db: Kysely<DB>): Promise<void> {
    const sent = this.sent.get(db);
    this.sent.delete(db);
    const push = await sent?.push;
    if (!push) return;
    push.abort.abort();
    await push.answer.catch(() => {});
  },
};

/** The last count of a hub's backlog: counting it on every push walked the whole backlog each time. */
const backlogs = new WeakMap<object, { at: number; after: number; n: number }>();
const RECOUNT_MS = 10_000;

/**
 * How many of its own changes the hub still holds after this page (which starts after
 * `after`), for the cloud's status. Counted once, then the count goes down by each page sent
 * while pages follow one another from where the last one ended; counted again after
 * RECOUNT_MS (changes committed meanwhile are then counted too), after a gap or a refusal,
 * and never while the page was the last.
 */
async function backlogAfter(services: Services, link: Link, epoch: string, after: number, page: Page): Promise<number> {
  const { db } = services;
  if (!page.more) {
    backlogs.delete(db);
    return 0;
  }
  const now = services.clock.now();
  const last = backlogs.get(db);
  if (last && last.after === after && now - last.at < RECOUNT_MS && last.n >= page.changes.length) {
    const n = last.n - page.changes.length;
    backlogs.set(db, { at: last.at, after: page.last, n });
    return n;
  }
  const n = await countLog(db, { restaurantId: link.restaurant_id, after: page.last, origin: epoch });
  backlogs.set(db, { at: now, after: page.last, n });
  return n;
}

/** Pulls one page of the cloud's changes and applies it in one transaction with its cursor. */
export async function pullPage(
  services: Services,
  link: Link,
  opts: LineOpts & { waitMs?: number; heartbeatMs?: number } = {},
): Promise<{ applied: number; pending: number; more: boolean }> {
  const { db } = services;
  const epoch = await currentEpoch(db);
  const after = Number(link.pull_cursor);
  let res: CloudPosition & { changes: WireChange[]; last: number; more: boolean; pending: number; last_op_id?: string | null };
  const sent = services.clock.now();
  try {
    res = await callCloud(
      link.cloud_url,
      '/pull',
      { protocol: PROTOCOL_VERSION, epoch, after, limit: PULL_BATCH, wait_ms: opts.waitMs ?? 0, ...(opts.heartbeatMs ? { heartbeat_ms: opts.heartbeatMs } : {}) },
      {
        credential: credentialOf(services, link),
        signal: opts.signal,
        agent: opts.agent,
        timeoutMs: (opts.waitMs ?? 0) + 30_000,
        // with heartbeats, silence longer than a few of them is a dead line
        idleMs: opts.heartbeatMs ? Math.max(IDLE_MS, 3 * opts.heartbeatMs) : undefined,
      },
    );
  } catch (err) {
    if (err instanceof Refused && err.code === 'sync_cursor_mismatch' && err.param === 'ahead') {
      // the cloud lost positions this hub had pulled (it was restored): pull it all again
      await db.updateTable('sync_link').set({ pull_cursor: 0, pull_op_id: null }).where('id', '=', 1).execute();
      return { applied: 0, pending: 0, more: true };
    }
    throw err;
  }
  const back = services.clock.now();
  await measureOffset(services, { sent, back, cloudNow: res.now, held: back - sent > 1000 });
  const applied = await services.tx.run(async (trx) => {
    const now = await trx.selectFrom('sync_link').select('pull_cursor').where('id', '=', 1).executeTakeFirst();
    // another pull (the CLI, a duplicated answer) got here first: this page is stale
    if (!now || Number(now.pull_cursor) !== after) return 0;
    const r = await applyChanges(trx, { restaurantId: link.restaurant_id, role: 'hub', now: services.clock.now(), hooks: services.registry.hooks }, res.changes);
    await trx
      .updateTable('sync_link')
      .set({
        pull_cursor: res.last,
        ...(res.last !== after && res.last_op_id ? { pull_op_id: res.last_op_id } : {}),
        cloud_head: res.head,
        pending_pull: res.pending,
        last_synced_at: Math.floor(services.clock.now() / 1000),
      })
      .where('id', '=', 1)
      .execute();
    return r.applied;
  });
  return { applied, pending: res.pending, more: res.more };
}

/** Pushes and pulls until both sides hold everything (the link command, tests). */
export async function syncUntilIdle(services: Services, opts: { signal?: AbortSignal } = {}): Promise<{ pushed: number; pulled: number }> {
  await hello(services, opts);
  let pushed = 0;
  let pulled = 0;
  for (;;) {
    const link = (await readLink(services.db))!;
    const page = await pushPage(services, link, opts, { overlap: true });
    pushed += page.changes.length;
    if (page.more) continue;
    const p = await pullPage(services, (await readLink(services.db))!, { signal: opts.signal });
    pulled += p.applied;
    if (!p.more && page.changes.length === 0) return { pushed, pulled };
  }
}

// at most this many told: the most recently used (a venue has a name or two and an address)
const MAX_ORIGINS = 50;

/** Tells the cloud every origin kept here (nothing when unlinked or none is known yet). */
export async function sendOrigins(services: Services): Promise<void> {
  const link = await readLink(services.db);
  if (!link) return;
  const rows = await services.db.selectFrom('home_origins').select('origin').orderBy('last_seen_at', 'desc').limit(MAX_ORIGINS).execute();
  if (!rows.length) return;
  await callCloud(link.cloud_url, '/origins', { protocol: PROTOCOL_VERSION, origins: rows.map((r) => r.origin) }, { credential: credentialOf(services, link), timeoutMs: 10_000 });
}
