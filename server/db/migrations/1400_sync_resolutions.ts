import type { Kysely } from 'kysely';

/**
 * A person settling a sync conflict. Conflicts are found by each node for itself (each its own
 * row and id in `sync_conflicts`), but the person sees the same conflict on the hub's and the
 * cloud's dashboard: the settlement is a replicated record, so it travels like any change and
 * settles the conflict on both sides. It names the conflict by what both nodes agree on, its
 * kind and its records (`row_ids`, sorted), not by either node's conflict id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sync_resolutions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // JSON string[], sorted, exactly as in sync_conflicts.row_ids
    .addColumn('row_ids', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    // the staff member (usr_…) or API key (key_…) who settled it
    .addColumn('resolved_by', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  // not unique: both sides may settle one conflict while apart, and both records must apply
  await db.schema.createIndex('sync_resolutions_conflict').on('sync_resolutions').columns(['restaurant_id', 'kind', 'row_ids']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sync_resolutions').execute();
}
