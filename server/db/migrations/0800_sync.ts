import type { Kysely } from 'kysely';

/**
 * Sync (sync/). The change log learns when a change was made (a hybrid logical clock that
 * orders changes across nodes) and which columns it set, so two nodes merge concurrent
 * edits field by field; the rest are local tables of the link itself.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // null on entries written before sync existed: they lose every merge against a dated change
  await db.schema.alterTable('change_log').addColumn('hlc', 'text').execute();
  // JSON string[] of the columns an update set; null: every column (an insert, a delete)
  await db.schema.alterTable('change_log').addColumn('fields', 'text').execute();
  // the last clock this node handed out, so it never runs backwards across restarts
  await db.schema.alterTable('node_state').addColumn('hlc', 'text').execute();
  // log positions up to here may have been compacted away (superseded entries removed), so a
  // live screen resuming from before it must reload
  await db.schema.alterTable('node_state').addColumn('compacted_through', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  // merging a remote change reads the local history of that one row
  await db.schema.createIndex('change_log_row').on('change_log').columns(['table_name', 'row_id', 'seq']).execute();
  await db.schema.createIndex('change_log_origin_pos').on('change_log').columns(['origin', 'seq']).execute();

  // Hub side: the one link of this hub to its cloud.
  await db.schema
    .createTable('sync_link')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('cloud_url', 'text', (c) => c.notNull())
    .addColumn('hub_id', 'text', (c) => c.notNull())
    .addColumn('credential', 'text', (c) => c.notNull())
    // cloud log position up to which this hub holds every change (what it pulls after)
    .addColumn('pull_cursor', 'bigint', (c) => c.notNull())
    // own log position up to which the cloud acknowledged every change
    .addColumn('push_cursor', 'bigint', (c) => c.notNull())
    .addColumn('resync', 'integer', (c) => c.notNull())
    .addColumn('connected', 'integer', (c) => c.notNull())
    .addColumn('last_synced_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('cloud_head', 'bigint')
    // the cloud's changes its last answer said were still waiting for this hub
    .addColumn('pending_pull', 'bigint', (c) => c.notNull().defaultTo(0))
    // the cloud's log identity: a cloud restored from a backup has another, and is pulled anew
    .addColumn('cloud_epoch', 'text')
    // the cloud's own refusal of this hub (credential, protocol, restaurant), for the status
    .addColumn('refused', 'text')
    .addColumn('clock_offset_ms', 'bigint', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();

  // Cloud side: one row per linked hub (a restaurant has at most one live link).
  await db.schema
    .createTable('sync_hubs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('credential_hash', 'text', (c) => c.notNull().unique())
    // the hub's log identity (its origin) and how far into that log the cloud holds everything
    .addColumn('epoch', 'text')
    .addColumn('cursor', 'bigint', (c) => c.notNull())
    .addColumn('cursor_op_id', 'text')
    // the cloud log position the hub last said it holds everything up to (what it pulls after)
    .addColumn('pulled_through', 'bigint', (c) => c.notNull().defaultTo(0))
    // changes the hub said it still had to push, at its last exchange
    .addColumn('hub_pending', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('resync', 'integer', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('revoked_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sync_hubs_restaurant').on('sync_hubs').columns(['restaurant_id']).execute();

  await db.schema
    .createTable('sync_invites')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    // null: the hub brings a new restaurant; else the restaurant a replacement hub takes over
    .addColumn('restaurant_id', 'text')
    .addColumn('expires', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();

  // Both sides: what a merge could not settle alone (kept until a person resolves it).
  await db.schema
    .createTable('sync_conflicts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('row_ids', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('sync_conflicts_once', ['kind', 'row_ids'])
    .execute();

  // Field clocks and tombstones of rows whose log entries compaction removed.
  await db.schema
    .createTable('sync_row_clocks')
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('row_id', 'text', (c) => c.notNull())
    // JSON {column: hlc}; "_deleted" when the row was deleted
    .addColumn('clocks', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_row_clocks_pk', ['table_name', 'row_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['sync_row_clocks', 'sync_conflicts', 'sync_invites', 'sync_hubs', 'sync_link']) await db.schema.dropTable(t).execute();
  await db.schema.dropIndex('change_log_origin_pos').execute();
  await db.schema.dropIndex('change_log_row').execute();
}
