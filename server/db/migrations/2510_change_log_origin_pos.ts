import type { Kysely } from 'kysely';

/**
 * The change log loses its (origin, seq) index: every entry a node writes itself has
 * origin_seq = seq, so the one reader that needed it (a hub reading its own changes to push,
 * and counting them for the status) walks the (origin, origin_seq) unique index instead.
 * An index fewer on the table every write of every node appends to; on the cloud nothing
 * read it at all.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('change_log_origin_pos').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('change_log_origin_pos').on('change_log').columns(['origin', 'seq']).execute();
}
