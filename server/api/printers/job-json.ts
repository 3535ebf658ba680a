import type { SelectQueryBuilder } from 'kysely';
import type { Executor } from '../../db/records.ts';
import type { DB } from '../../db/schema.ts';
import { versionsOf } from '../../db/versions.ts';
import { printJobsVersion } from '../../db/print-job-versions.ts';
import { readRawRows } from '../../db/statement-shapes.ts';
import { pageQuery, type PageRequest, type SortKey } from '../../http/pagination.ts';
import { presentPrintJob, PRESENTED_JOB_COLUMNS } from '../../presenters/printers.ts';

/**
 * Each job's presented JSON, valid for one revision of its row. `rev` moves with every
 * UPDATE of the row (a trigger, migration 0702) and commits with it, so `(id, rev)` names one
 * state of a job whichever process changed it (ids are never reused, so a job cannot start
 * again at a revision already seen). Oldest entries go first once full.
 */
class JobJson {
  private readonly entries = new Map<string, { rev: number; json: string }>();
  constructor(private readonly max: number) {}

  get(id: string, rev: number): string | undefined {
    const hit = this.entries.get(id);
    return hit?.rev === rev ? hit.json : undefined;
  }

  set(id: string, rev: number, json: string): void {
    this.entries.delete(id);
    this.entries.set(id, { rev, json });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}

const made = new WeakMap<object, JobJson>();
/** One cache per database (a database is named by its versions, as in db/versioned-cache.ts). */
function jobJson(db: Executor): JobJson {
  const key = versionsOf(db);
  let cache = made.get(key);
  if (!cache) made.set(key, (cache = new JobJson(20_000)));
  return cache;
}

type Listed = { id: string; created: number; rev: number };
type PageQuery = SelectQueryBuilder<DB, 'print_jobs', Listed>;

/** The page of ids, sort keys and revisions; on the hub read as plain arrays (statement-shapes.ts). */
async function pageOfIds(db: Executor, ids: PageQuery, opts: PageRequest & { keys: SortKey[]; url: string }) {
  const page = pageQuery(ids, opts);
  const compiled = page.query.compile();
  const raw = readRawRows(db, compiled);
  const rows = raw ? raw.map(([id, created, rev]) => ({ id, created, rev }) as Listed) : (await db.executeQuery(compiled)).rows;
  return page.envelope(rows);
}

/**
 * A page of the job list as JSON text, exactly as `mapPage(page, rows => rows.map(presentPrintJob))`
 * would serialise it: the page is read as ids, sort keys and revisions, and only jobs not
 * seen at that revision are read and presented. Undefined when a
 * job changed between the two reads: the caller then answers from one query, so a page never
 * mixes two moments (a job listed under `state=queued` that has printed since).
 */
export async function jobPageJson(db: Executor, restaurantId: string, ids: PageQuery, opts: PageRequest & { keys: SortKey[]; url: string }): Promise<string | undefined> {
  const page = await pageOfIds(db, ids, opts);
  const cache = jobJson(db);
  const parts = page.data.map((r) => cache.get(r.id, r.rev));
  const missing = page.data.filter((_, i) => parts[i] === undefined).map((r) => r.id);
  if (missing.length > 0) {
    const rows = await db
      .selectFrom('print_jobs')
      .select([...PRESENTED_JOB_COLUMNS, 'rev'])
      .where('restaurant_id', '=', restaurantId)
      .where('id', 'in', missing)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [i, listed] of page.data.entries()) {
      if (parts[i] !== undefined) continue;
      const row = byId.get(listed.id);
      if (!row || row.rev !== listed.rev) return undefined;
      const json = JSON.stringify(presentPrintJob(row));
      cache.set(row.id, row.rev, json);
      parts[i] = json;
    }
  }
  // the envelope as mapPage leaves it, with the jobs' JSON where its data goes
  const envelope = JSON.stringify({ ...page, data: [] });
  const at = envelope.indexOf('"data":[]') + '"data":['.length;
  return envelope.slice(0, at) + parts.join(',') + envelope.slice(at);
}

/** Whole pages of the job list by restaurant, mode and query, each valid at one version of the restaurant's jobs. */
const pages = new WeakMap<object, Map<string, { version: string; bytes: Buffer }>>();
const MAX_PAGES = 256;

/**
 * The job list page for `key` (the request's query), as JSON bytes or text. On the hub
 * (SQLite) the restaurant's print-job version (migration 0703) is read first, and a page
 * made at that version is answered as it was; elsewhere, or while a transaction holds the
 * hub's connection, the page is made from the jobs kept per revision (jobPageJson).
 */
export async function jobListJson(
  db: Executor,
  page: { restaurantId: string; livemode: boolean; key: string },
  ids: PageQuery,
  opts: PageRequest & { keys: SortKey[]; url: string },
): Promise<string | Buffer | undefined> {
  const version = printJobsVersion(db, page.restaurantId);
  if (version === undefined) return jobPageJson(db, page.restaurantId, ids, opts);
  let cache = pages.get(versionsOf(db));
  if (!cache) pages.set(versionsOf(db), (cache = new Map()));
  const key = `${page.restaurantId}|${page.livemode}|${page.key}`;
  const hit = cache.get(key);
  if (hit?.version === version) return hit.bytes;
  const json = await jobPageJson(db, page.restaurantId, ids, opts);
  if (json === undefined) return undefined;
  const bytes = Buffer.from(json);
  cache.delete(key);
  cache.set(key, { version, bytes });
  if (cache.size > MAX_PAGES) cache.delete(cache.keys().next().value!);
  return bytes;
}
