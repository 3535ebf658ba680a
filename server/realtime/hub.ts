import type { Services } from '../services.ts';
import { changesFrom, livemodeOf, matches, prepareGuestViews, render, type Change } from './changes.ts';
import { forgetKey } from '../http/authenticate.ts';
import { CLOSE, type RealtimeClient } from './client.ts';
import { CREDENTIAL_TABLES, lapsed } from './credentials.ts';
import { BATCH_SIZE, type RealtimeOptions } from './options.ts';
import type { Topic } from './topics.ts';
import type { ChangeRow } from '../db/tables/change-log.table.ts';
import { monotonicMs } from '../clock.ts';

const STOP_GRACE_MS = 500;
/** restaurants read by one query of the live loop (two parameters each) */
const RESTAURANTS_PER_READ = 200;

/**
 * The live feed of one server process. A single loop reads the change log in seq order and
 * hands each change to the screens that follow it; subscribing (with its replay) runs in
 * the same loop, between two rounds, so a resumed screen gets the log up to the loop's
 * position and then live messages from exactly there on: no gap, no duplicate.
 *
 * The position is kept per restaurant. Log positions follow commit order within a
 * restaurant only (db/log-positions.ts): on a cloud, restaurant A's unit may hold seq 10
 * while B's 11 commits first, so one cursor over all would move past 10 and skip it. Per
 * restaurant, what is visible after a cursor is always a run of the restaurant's next
 * entries, so each cursor moves exactly over what was handed out. A screen follows one
 * restaurant, so the positions it sees (and resumes from) are its restaurant's.
 */
export class RealtimeHub {
  /** per restaurant followed here: every change of it with seq ≤ its cursor has been handed out */
  private readonly cursors = new Map<string, number>();
  readonly clients = new Set<RealtimeClient>();
  private readonly byRestaurant = new Map<string, Set<RealtimeClient>>();
  private readonly tasks: (() => Promise<void>)[] = [];
  /** restaurants whose sockets' credentials are to be checked (null: all), before anything else is sent */
  private rechecks: ReadonlySet<string> | null | undefined = undefined;
  private wanted = false;
  private running: Promise<void> | null = null;
  private started = false;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly services: Services,
    private readonly opts: RealtimeOptions,
  ) {}

  async start(): Promise<void> {
    this.started = true;
    this.kick();
  }

  /** Says goodbye to every screen (they reconnect elsewhere and resume), then waits for the loop. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const open = [...this.clients];
    for (const c of open) c.close(CLOSE.goingAway, 'server stopping');
    // a screen that does not answer the close would hold the HTTP server open
    const deadline = monotonicMs() + STOP_GRACE_MS;
    while (open.some((c) => c.ws.readyState !== c.ws.CLOSED) && monotonicMs() < deadline) await new Promise((r) => setTimeout(r, 10));
    for (const c of open) if (c.ws.readyState !== c.ws.CLOSED) c.terminate();
    await this.running;
  }

  /** The position of a restaurant's feed here (null until a screen of it is followed). */
  positionOf(restaurantId: string | undefined): number | null {
    return restaurantId === undefined ? null : (this.cursors.get(restaurantId) ?? null);
  }

  /** Something committed (here, or in another process): read the log from the cursor. */
  wake(): void {
    this.wanted = true;
    this.kick();
  }

  add(client: RealtimeClient): void {
    if (this.stopped) return client.close(CLOSE.goingAway, 'server stopping');
    this.clients.add(client);
    client.onGone = () => this.remove(client);
  }

  remove(client: RealtimeClient): void {
    this.clients.delete(client);
    const id = client.principal?.restaurantId;
    const set = id ? this.byRestaurant.get(id) : undefined;
    if (set) {
      set.delete(client);
      if (set.size === 0) this.byRestaurant.delete(id!);
    }
  }

  /**
   * An authenticated client: from now on the loop reads its restaurant's changes, so one that
   * ends its credential closes it even before it follows anything.
   */
  register(client: RealtimeClient): void {
    const id = client.principal?.restaurantId;
    if (!id || client.closed) return;
    let set = this.byRestaurant.get(id);
    if (!set) this.byRestaurant.set(id, (set = new Set()));
    set.add(client);
    // the loop starts following the restaurant (its cursor) at its next round
    if (!this.cursors.has(id)) this.wake();
  }

  /**
   * Checks the credentials of the staff sockets of these restaurants (all: null) again, in
   * the loop, and closes those that ended: a revoked key or device, a revoked or expired
   * session, a person deactivated or given another role. Called for what the change log
   * cannot show (sessions), and every heartbeat for what no one announced (the CLI).
   */
  recheck(restaurants: ReadonlySet<string> | null): void {
    if (restaurants === null || this.rechecks === null) this.rechecks = null;
    else this.rechecks = new Set([...(this.rechecks ?? []), ...restaurants]);
    this.kick();
  }

  private async closeLapsed(restaurants: ReadonlySet<string> | null): Promise<void> {
    const clients = restaurants === null ? [...this.clients] : [...restaurants].flatMap((r) => [...(this.byRestaurant.get(r) ?? [])]);
    for (const c of await lapsed(this.services, clients)) {
      if (c.closed) continue;
      const p = c.principal;
      if (p?.kind === 'staff' && p.credential.kind === 'key') forgetKey(this.services, p.credential.keyId);
      this.services.logger.info({ restaurant: p?.restaurantId, credential: p?.kind === 'staff' ? p.credential : null }, 'realtime: credential ended, socket closed');
      c.error(p?.kind === 'staff' && p.credential.kind === 'session' ? 'not_signed_in' : 'api_key_invalid', 'This credential was revoked or changed. Authenticate again.', CLOSE.unauthorized);
      this.remove(c);
    }
  }

  /**
   * Starts following `topics`. With `since`, first replays what the client missed after that
   * seq (or tells it to resync); resolves once the topics are live.
   */
  subscribe(client: RealtimeClient, topics: Topic[], since: number | null): Promise<void> {
    client.pending++;
    return new Promise<void>((resolve, reject) => {
      this.tasks.push(async () => {
        try {
          await this.attach(client, topics, since);
          resolve();
        } catch (err) {
          reject(err);
        } finally {
          client.pending--;
        }
      });
      this.kick();
    });
  }

  /**
   * A notice of local bookkeeping (a feature's `noticeTopics`) to the staff sockets
   * of the restaurant following `topic`, of its mode: sent at once, with no seq (nothing in the
   * log to resume from; a view reloads when it follows the topic again). `livemode` null: for
   * keys of either mode (a record that has none, like a printer).
   */
  notice(restaurantId: string, topic: string, livemode: boolean | null, type: string, data: unknown): void {
    let text: Buffer | null = null;
    for (const c of this.byRestaurant.get(restaurantId) ?? []) {
      const p = c.principal;
      if (c.closed || p?.kind !== 'staff' || (livemode !== null && p.livemode !== livemode) || !c.topics.has(topic)) continue;
      text ??= Buffer.from(JSON.stringify({ type, topic, seq: null, data }));
      c.send(text);
    }
  }

  /** Liveness round: drop sockets that missed the last ping; tell the rest how far the log is. */
  heartbeat(): void {
    for (const c of this.clients) {
      if (c.closed || c.ws.readyState !== c.ws.OPEN) continue;
      if (!c.alive) {
        this.services.logger.info({ restaurant: c.principal?.restaurantId }, 'realtime: dead connection dropped');
        c.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
      // Lets a quiet screen move its resume point forward; never while a replay is pending.
      const at = this.positionOf(c.principal?.restaurantId);
      if (c.topics.size > 0 && c.pending === 0 && at !== null) c.sendMessage('heartbeat', at);
    }
  }

  private kick(): void {
    if (!this.started || this.stopped || this.running) return;
    this.running = this.run().finally(() => {
      this.running = null;
      if (!this.stopped && (this.tasks.length > 0 || this.wanted || this.rechecks !== undefined) && !this.retry) this.kick();
    });
  }

  private async run(): Promise<void> {
    try {
      while (!this.stopped && (this.wanted || this.tasks.length > 0 || this.rechecks !== undefined)) {
        // a credential that ended is acted on before any later change goes out
        if (this.rechecks !== undefined) {
          const which = this.rechecks;
          this.rechecks = undefined;
          await this.closeLapsed(which);
        }
        if (this.wanted) {
          this.wanted = false;
          await this.catchUp();
        }
        const task = this.tasks.shift();
        if (task) await task();
      }
    } catch (err) {
      // The database is away (or a query failed): keep the cursor, try again shortly.
      this.services.logger.error({ err }, 'realtime: reading the change log failed');
      this.wanted = true;
      this.retry = setTimeout(() => {
        this.retry = null;
        this.kick();
      }, 1000);
      this.retry.unref();
    }
  }

  private async catchUp(): Promise<void> {
    const followed = [...this.byRestaurant.keys()];
    for (const id of this.cursors.keys()) if (!this.byRestaurant.has(id)) this.cursors.delete(id);
    const fresh = followed.filter((id) => !this.cursors.has(id));
    for (const id of fresh) await this.startCursor(id);
    // a credential may have ended before the restaurant's cursor was taken: check its sockets once
    if (fresh.length > 0) await this.closeLapsed(new Set(fresh));
    for (let i = 0; i < followed.length; i += RESTAURANTS_PER_READ) await this.catchUpOn(followed.slice(i, i + RESTAURANTS_PER_READ));
  }

  /** A restaurant followed from now: it starts after what it has committed (its later entries all come after). */
  private async startCursor(restaurantId: string): Promise<void> {
    const row = await this.services.db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('seq')).where('restaurant_id', '=', restaurantId).executeTakeFirst();
    this.cursors.set(restaurantId, Number(row?.seq ?? 0));
  }

  /** Hands out what these restaurants committed after their cursors, a batch at a time. */
  private async catchUpOn(restaurants: string[]): Promise<void> {
    const db = this.services.db;
    for (;;) {
      const after = restaurants.filter((id) => this.cursors.has(id)).map((id) => [id, this.cursors.get(id)!] as const);
      if (after.length === 0) return;
      // Ordered by seq and cut at BATCH_SIZE, each restaurant's part of the batch is the run
      // of its next entries: nothing of it below the cut is still to come.
      const entries: ChangeRow[] = await db
        .selectFrom('change_log')
        .selectAll()
        .where((eb) => eb.or(after.map(([id, seq]) => eb.and([eb('restaurant_id', '=', id), eb('seq', '>', seq)]))))
        .orderBy('seq')
        .limit(BATCH_SIZE)
        .execute();
      if (entries.length === 0) return;
      // a key revoked, a person deactivated or moved to another role: their sockets are
      // closed before anything later in the log is handed out
      const touched = new Set(entries.filter((e) => CREDENTIAL_TABLES.has(e.table_name)).map((e) => e.restaurant_id!));
      if (touched.size > 0) await this.closeLapsed(touched);
      const rt = this.services.registry.realtime;
      const changes = await changesFrom(db, entries, rt.feeds);
      if (changes.some((ch) => this.hasGuests(ch.restaurantId))) await prepareGuestViews(db, changes.filter((ch) => this.hasGuests(ch.restaurantId)), rt.guestOrderView);
      // From here to the cursor update nothing awaits: a change is handed out exactly once.
      for (const change of changes) {
        const clients = this.byRestaurant.get(change.restaurantId);
        if (clients) for (const c of clients) this.deliver(change, c, c.topics.values());
      }
      for (const e of entries) if (this.cursors.has(e.restaurant_id!)) this.cursors.set(e.restaurant_id!, Math.max(this.cursors.get(e.restaurant_id!)!, Number(e.seq)));
      if (entries.length < BATCH_SIZE) return;
    }
  }

  private hasGuests(restaurantId: string): boolean {
    for (const c of this.byRestaurant.get(restaurantId) ?? []) if (c.principal?.kind === 'guest') return true;
    return false;
  }

  private async attach(client: RealtimeClient, topics: Topic[], since: number | null): Promise<void> {
    if (client.closed || !client.principal) return;
    const restaurantId = client.principal.restaurantId;
    let resync: string | null = null;
    let missed: Change[] = [];
    if (since !== null) {
      // Read up to what is committed now (attach runs inside the loop, so this is not a
      // second reader): the replay then holds every change made before the client asked,
      // however late this process's wake-up, and another process may have shown the client
      // a later seq than this one had read.
      await this.catchUp();
    }
    if (!this.cursors.has(restaurantId)) await this.startCursor(restaurantId);
    const cursor = this.cursors.get(restaurantId)!;
    if (since !== null) {
      if (since > cursor) resync = 'unknown_seq';
      else if (since < cursor) {
        const entries = await this.services.db
          .selectFrom('change_log')
          .selectAll()
          .where('restaurant_id', '=', restaurantId)
          .where('seq', '>', since)
          .where('seq', '<=', cursor)
          .orderBy('seq')
          .limit(this.opts.resumeMaxChanges + 1)
          .execute();
        // sync compacts the log (superseded entries removed) up to a position it records
        const oldest = await this.services.db.selectFrom('change_log').select((eb) => eb.fn.min('seq').as('seq')).executeTakeFirst();
        const compacted = await this.services.db.selectFrom('node_state').select('compacted_through').where('id', '=', 1).executeTakeFirst();
        if (entries.length > this.opts.resumeMaxChanges) resync = 'too_old';
        else if (since < Number(compacted?.compacted_through ?? 0)) resync = 'pruned';
        else if (oldest?.seq !== null && oldest?.seq !== undefined && Number(oldest.seq) > since + 1) resync = 'pruned';
        else missed = await changesFrom(this.services.db, entries, this.services.registry.realtime.feeds);
        if (client.principal.kind === 'guest') await prepareGuestViews(this.services.db, missed, this.services.registry.realtime.guestOrderView);
      }
    }
    if (client.closed) return;
    // a topic already live on this socket is not replayed again: that would repeat messages
    // (and a topic named twice in one request is replayed once)
    const fresh = [...new Map(topics.filter((t) => !client.topics.has(t.name)).map((t) => [t.name, t])).values()];
    // The replay goes out in one go; one larger than a client may have unsent would get the
    // socket cut off halfway, and the screen would come back to the same cut forever.
    if (!resync && this.replayBytes(missed, client, fresh) > this.opts.maxBufferedBytes) {
      resync = 'too_large';
      missed = [];
    }
    // Synchronous from here: the replay, then the topics go live at the same cursor.
    if (resync) client.sendMessage('resync', cursor, { reason: resync });
    let replayed = 0;
    for (const change of missed) replayed += this.deliver(change, client, fresh);
    for (const t of topics) client.topics.set(t.name, t);
    let set = this.byRestaurant.get(restaurantId);
    if (!set) this.byRestaurant.set(restaurantId, (set = new Set()));
    set.add(client);
    client.sendMessage('subscribed', cursor, { topics: [...client.topics.keys()], replayed, resync: resync !== null });
  }

  /** Sends a change on each of the client's topics it matches; returns how many messages went out. */
  private deliver(change: Change, client: RealtimeClient, topics: Iterable<Topic>): number {
    let sent = 0;
    for (const text of messagesFor(change, client, topics)) {
      client.send(text);
      sent++;
    }
    return sent;
  }

  /** What replaying `changes` would send the client, in bytes (each text is rendered once and cached). */
  private replayBytes(changes: Change[], client: RealtimeClient, topics: Topic[]): number {
    let bytes = 0;
    for (const change of changes) {
      for (const text of messagesFor(change, client, topics)) bytes += typeof text === 'string' ? Buffer.byteLength(text) : text.length;
    }
    return bytes;
  }
}

/** The messages a change makes for a client on these topics: of its mode, matching each topic. */
function* messagesFor(change: Change, client: RealtimeClient, topics: Iterable<Topic>): Generator<string | Buffer> {
  const p = client.principal;
  if (!p || client.closed) return;
  if (p.kind === 'staff') {
    const livemode = livemodeOf(change);
    if (livemode !== null && livemode !== p.livemode) return;
    // an order gone before it was read, known only by its lines: of no known mode, so for no key
    // (its deletion comes in a run of its own, with the order's row and so its mode)
    if (change.kind === 'order' && livemode === null) return;
  }
  for (const topic of topics) {
    if (!matches(change, topic)) continue;
    const text = render(change, topic, p.kind === 'guest' ? 'guest' : p.screen ? 'screen' : 'staff');
    if (text) yield text;
  }
}
