import type { Services } from '../services.ts';
import { changesFrom, livemodeOf, matches, render, type Change, type ChangeRow } from './changes.ts';
import { CLOSE, type RealtimeClient } from './client.ts';
import { BATCH_SIZE, type RealtimeOptions } from './options.ts';
import type { Topic } from './topics.ts';

const STOP_GRACE_MS = 500;
const MAX_FILTERED_RESTAURANTS = 500;

/**
 * The live feed of one server process. A single loop reads the change log in seq order and
 * hands each change to the screens that follow it; subscribing (with its replay) runs in
 * the same loop, between two rounds, so a resumed screen gets the log up to the loop's
 * position and then live messages from exactly there on: no gap, no duplicate.
 */
export class RealtimeHub {
  /** every change with seq ≤ cursor has been handed to the live topics */
  cursor = 0;
  readonly clients = new Set<RealtimeClient>();
  private readonly byRestaurant = new Map<string, Set<RealtimeClient>>();
  private readonly tasks: (() => Promise<void>)[] = [];
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
    this.cursor = await this.head();
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
    const deadline = Date.now() + STOP_GRACE_MS;
    while (open.some((c) => c.ws.readyState !== c.ws.CLOSED) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    for (const c of open) if (c.ws.readyState !== c.ws.CLOSED) c.terminate();
    await this.running;
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
      if (c.topics.size > 0 && c.pending === 0) c.sendMessage('heartbeat', this.cursor);
    }
  }

  private kick(): void {
    if (!this.started || this.stopped || this.running) return;
    this.running = this.run().finally(() => {
      this.running = null;
      if (!this.stopped && (this.tasks.length > 0 || this.wanted) && !this.retry) this.kick();
    });
  }

  private async run(): Promise<void> {
    try {
      while (!this.stopped && (this.wanted || this.tasks.length > 0)) {
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
    const db = this.services.db;
    for (;;) {
      // Positions are gap-free and become visible in order (db/records.ts): everything up to
      // the head read here has committed, so the range below is complete.
      const head = await this.head();
      if (head <= this.cursor) return;
      const upTo = Math.min(head, this.cursor + BATCH_SIZE);
      const restaurants = [...this.byRestaurant.keys()];
      let entries: ChangeRow[] = [];
      if (restaurants.length > 0) {
        let q = db.selectFrom('change_log').selectAll().where('seq', '>', this.cursor).where('seq', '<=', upTo);
        // a cloud process reads only the restaurants its screens follow (a long list: read all, filter here)
        if (restaurants.length <= MAX_FILTERED_RESTAURANTS) q = q.where('restaurant_id', 'in', restaurants);
        entries = (await q.orderBy('seq').execute()).filter((e) => e.restaurant_id !== null && this.byRestaurant.has(e.restaurant_id));
      }
      const changes = entries.length > 0 ? await changesFrom(db, entries) : [];
      // From here to the cursor update nothing awaits: a change is handed out exactly once.
      for (const change of changes) {
        const clients = this.byRestaurant.get(change.restaurantId);
        if (clients) for (const c of clients) this.deliver(change, c, c.topics.values());
      }
      this.cursor = upTo;
      if (upTo === head) return;
    }
  }

  private async head(): Promise<number> {
    const row = await this.services.db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
    return Number(row?.seq ?? 0);
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
      if (since > this.cursor) resync = 'unknown_seq';
      else if (since < this.cursor) {
        const entries = await this.services.db
          .selectFrom('change_log')
          .selectAll()
          .where('restaurant_id', '=', restaurantId)
          .where('seq', '>', since)
          .where('seq', '<=', this.cursor)
          .orderBy('seq')
          .limit(this.opts.resumeMaxChanges + 1)
          .execute();
        // sync compacts the log (superseded entries removed) up to a position it records
        const oldest = await this.services.db.selectFrom('change_log').select((eb) => eb.fn.min('seq').as('seq')).executeTakeFirst();
        const compacted = await this.services.db.selectFrom('node_state').select('compacted_through').where('id', '=', 1).executeTakeFirst();
        if (entries.length > this.opts.resumeMaxChanges) resync = 'too_old';
        else if (since < Number(compacted?.compacted_through ?? 0)) resync = 'pruned';
        else if (oldest?.seq !== null && oldest?.seq !== undefined && Number(oldest.seq) > since + 1) resync = 'pruned';
        else missed = await changesFrom(this.services.db, entries);
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
    if (resync) client.sendMessage('resync', this.cursor, { reason: resync });
    let replayed = 0;
    for (const change of missed) replayed += this.deliver(change, client, fresh);
    for (const t of topics) client.topics.set(t.name, t);
    let set = this.byRestaurant.get(restaurantId);
    if (!set) this.byRestaurant.set(restaurantId, (set = new Set()));
    set.add(client);
    client.sendMessage('subscribed', this.cursor, { topics: [...client.topics.keys()], replayed, resync: resync !== null });
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
    const text = render(change, topic);
    if (text) yield text;
  }
}
