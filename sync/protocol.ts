import { z } from 'zod';
import { HLC_PATTERN } from '../server/db/hlc.ts';

/**
 * The wire between a hub and its cloud. A hub and a cloud of different protocol versions
 * refuse each other with `sync_protocol_mismatch` before anything is applied.
 */
// 2: settlements of conflicts (sync_resolutions) travel
// 3: payments, refunds and cash counts travel (issue 25)
// 4: hello carries the hub's checkpoints (a restored cloud is found out); /repair
// 5: the long poll's and the push's heartbeat (a hub drops a request silent for a few seconds);
//    /ping; webhook endpoints' sent_by; a compacted entry's per-column clocks
// 6: orders' covers (migration 2750) and an order line's sender (order_items.sent_by, 2900)
// 7: a payment's shares of lines (payments.item_shares, migration 2950)
export const PROTOCOL_VERSION = 7;

/** Bounds of one batch, both ways: entries and uncompressed bytes. */
export const MAX_BATCH_ENTRIES = 2000;
export const MAX_BATCH_BYTES = 8 * 1024 * 1024;
/** what a compressed request body may be before it is inflated */
export const MAX_COMPRESSED_BYTES = 2 * 1024 * 1024;
/** The longest the cloud holds a push that arrived before its predecessor (`wait_ms`). */
export const MAX_QUEUE_MS = 20_000;

/** One change-log entry as it travels: the change exactly as its origin logged it. */
export const wireChange = z.object({
  op_id: z.string().min(3).max(64),
  origin: z.string().min(1).max(64),
  origin_seq: z.number().int().nonnegative(),
  table: z.string().min(1).max(64),
  row_id: z.string().min(1).max(64),
  op: z.enum(['insert', 'update', 'delete']),
  /**
   * the row after the change (the last state for a delete). An object, taken as parsed: its
   * columns are checked against the table's own when applied (sync/apply.ts validate), and a
   * record schema here copied every column of every row of a batch once more.
   */
  data: z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'an object of the row’s columns'),
  /** columns the change set; null: all */
  fields: z.array(z.string().max(64)).max(200).nullable(),
  hlc: z.string().regex(HLC_PATTERN).nullable(),
  /**
   * On an entry that outlived a compaction (its row's earlier entries were removed): when each
   * column was last set by those entries (`*`: every column, by the insert), as sync_row_clocks
   * keeps it. The receiver merges each column of the row by its own clock, so a compacted entry
   * neither loses the columns it no longer claims nor beats a newer write of them.
   */
  clocks: z.record(z.string().max(64), z.string().regex(HLC_PATTERN)).optional(),
});
export type WireChange = z.infer<typeof wireChange>;

const header = { protocol: z.number().int() };

export const linkRequest = z.object({
  ...header,
  code: z.string().min(8).max(128),
  /** the restaurant the hub brings (a new one), or null when it takes over the invite's */
  restaurant_id: z.string().max(64).nullable(),
  epoch: z.string().min(1).max(64),
  /** the slug of the restaurant the hub brings: refused at once when another restaurant has it */
  slug: z.string().max(64).optional(),
});

export const helloRequest = z.object({
  ...header,
  epoch: z.string().min(1).max(64),
  /**
   * The hub's checkpoints, which the cloud verifies (as CouchDB's replication checkpoints are
   * kept and compared on both peers): the cloud identity it pulled from, the position it pulled
   * through with the op id the cloud had there, and how far the cloud acknowledged its pushes.
   * A cloud that no longer holds what it handed out or acknowledged was restored from a dump.
   */
  cloud_epoch: z.string().max(64).nullable().optional(),
  pulled: z.object({ after: z.number().int().nonnegative(), op_id: z.string().max(64).nullable() }).optional(),
  pushed_through: z.number().int().nonnegative().optional(),
});

export const pushRequest = z.object({
  ...header,
  epoch: z.string().min(1).max(64),
  /** the sender holds that these are all its changes after this position */
  after: z.number().int().nonnegative(),
  changes: z.array(wireChange).max(MAX_BATCH_ENTRIES),
  /** how many of its changes the hub still holds after this batch, for the cloud's status */
  pending: z.number().int().nonnegative().optional(),
  /** a whitespace byte this often while the cloud applies the batch (see pullRequest) */
  heartbeat_ms: z.number().int().min(250).max(30_000).optional(),
  /**
   * A batch sent before the cloud answered the one before it (the hub overlaps its pushes):
   * one that starts beyond the cloud's cursor waits up to this long for its predecessor
   * instead of being refused at once. Only sent to a cloud whose position says `queue_ms`;
   * a cloud from before strips it and refuses such a batch as a gap, which the hub then
   * sends again in turn.
   */
  wait_ms: z.number().int().min(0).max(MAX_QUEUE_MS).optional(),
});

/**
 * A linked hub renames its restaurant's guest address (slug): the cloud, which sees every
 * restaurant, makes the rename first (unique across the cloud, issue 40), then the hub.
 */
export const slugRequest = z.object({ ...header, slug: z.string().min(1).max(64) });

/**
 * The origins the hub's staff devices reach it at (`http(s)://host[:port]`): the cloud answers
 * CORS for these, so a device can carry on against the cloud when the hub stops
 * (docs/contributors/two-homes.md). A cloud from before has no route for it (404).
 */
export const originsRequest = z.object({ ...header, origins: z.array(z.string().max(200).regex(/^https?:\/\/[^/\s]+$/)).max(50) });

/** The hub gives up its link: the cloud revokes the credential it was sent with. */
export const unlinkRequest = z.object({ ...header });

export const pullRequest = z.object({
  ...header,
  epoch: z.string().min(1).max(64),
  after: z.number().int().nonnegative(),
  limit: z.number().int().min(1).max(MAX_BATCH_ENTRIES).optional(),
  /** ms to hold the request open when nothing is new yet (long poll) */
  wait_ms: z.number().int().min(0).max(30_000).optional(),
  /**
   * While it holds the poll open, the cloud sends a whitespace byte this often (the JSON
   * answer follows it): the hub takes a longer silence for a dead line.
   */
  heartbeat_ms: z.number().int().min(250).max(30_000).optional(),
});

/** Anyone may ask: a hub probing whether the line to its cloud carries packets again. */
export const pingRequest = z.object({ ...header });

/** Rows a side sends whole for one audit request (a report lists at most that many). */
export const MAX_AUDIT_ROWS = 500;

/**
 * The audit's three looks (sync/audit.ts): no field, the bucket summary; `detail` with
 * `hashes`, per-row hashes of those buckets; `ids`, those rows whole. Both fields came within
 * protocol 5, so neither side refuses the other over them: a cloud from before ignores
 * `hashes` and answers `detail` with the buckets' whole rows, which the hub hashes itself; a
 * hub from before sends no `hashes` and gets those rows as it expects.
 */
export const auditRequest = z.object({
  ...header,
  /** per table, bucket names whose rows are wanted one by one (after the bucket hashes differed) */
  detail: z.record(z.string(), z.array(z.string().max(8)).max(256)).optional(),
  /** with `detail`: answer each row's hash (`hashes`), not the row (`rows`) */
  hashes: z.boolean().optional(),
  /** per table, ids whose rows are wanted whole (after their hashes differed); 500 in all */
  ids: z.record(z.string(), z.array(z.string().max(64)).max(MAX_AUDIT_ROWS)).optional(),
});

/** What the cloud answers a hello and every push: where it stands with this hub. */
export const cloudPosition = z.object({
  protocol: z.number().int(),
  cloud_epoch: z.string(),
  restaurant_id: z.string(),
  /** the last position of the hub's log the cloud holds everything up to */
  cursor: z.number().int(),
  cursor_op_id: z.string().nullable(),
  /** the cloud's head (its log position) and clock, to measure lag and clock offset */
  head: z.number().int(),
  now: z.number().int(),
  /**
   * The cloud holds a push that arrives before its predecessor up to this long (`wait_ms`),
   * so the hub may send its next page before this one is answered. Absent on a cloud from
   * before: the hub then waits for each answer. Optional, so protocol 5 stands either way.
   */
  queue_ms: z.number().int().optional(),
});
export type CloudPosition = z.infer<typeof cloudPosition>;

/** The cloud's answer to a link: the hub's credential (shown once) and where to start. */
export const linkAnswer = cloudPosition.extend({
  object: z.literal('sync_link'),
  hub_id: z.string(),
  credential: z.string(),
  /** push: the hub brings its restaurant; pull: it takes over the invite's */
  mode: z.enum(['push', 'pull']),
});

/** A page of the cloud's log (never the hub's own changes), with where the cloud stands. */
export const pullAnswer = cloudPosition.extend({
  changes: z.array(wireChange),
  /** the last log position read: the hub's next `after` */
  last: z.number().int(),
  more: z.boolean(),
  /** changes still waiting after `last` */
  pending: z.number().int(),
  /** the op id at `last` (the hub's checkpoint) */
  last_op_id: z.string().nullable(),
  lastOpId: z.string().optional(),
});

/** One side's audit (sync/audit.ts SideSummary). */
export const auditAnswer = z.object({
  tables: z.record(z.string(), z.object({ rows: z.number().int(), buckets: z.record(z.string(), z.string()) })),
  rows: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown()))).optional(),
  hashes: z.record(z.string(), z.record(z.string(), z.string())).optional(),
});

export const pingAnswer = z.object({ object: z.literal('sync_ping'), protocol: z.number().int() });
export const originsAnswer = z.object({ object: z.literal('sync_origins'), origins: z.array(z.string()) });
export const slugAnswer = z.object({ object: z.literal('sync_slug'), restaurant_id: z.string(), slug: z.string() });
export const unlinkAnswer = z.object({ object: z.literal('sync_unlink'), hub_id: z.string(), revoked_at: z.number().int() });
