import type { Kysely } from 'kysely';

/**
 * Self-repair and restore detection (sync/repair.ts, sync/hub.ts).
 * - Both sides keep where the last audit-and-repair left them (`repair_state`: unknown,
 *   in_sync, repairing, diverged), when it ran, how many rows it mended and, when it could
 *   not converge, which rows still differ: the status shows it on both sides.
 * - The hub keeps the op id of the cloud entry at its pull cursor (`pull_op_id`): a checkpoint
 *   the cloud verifies at every hello, so a cloud restored from a dump is found out.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['sync_link', 'sync_hubs']) {
    await db.schema.alterTable(table).addColumn('repair_state', 'text', (c) => c.notNull().defaultTo('unknown')).execute();
    await db.schema.alterTable(table).addColumn('repair_checked_at', 'bigint').execute();
    await db.schema.alterTable(table).addColumn('repaired_rows', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    // JSON {table, id}[] of rows that did not converge (at most 20)
    await db.schema.alterTable(table).addColumn('repair_unconverged', 'text').execute();
  }
  await db.schema.alterTable('sync_link').addColumn('pull_op_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sync_link').dropColumn('pull_op_id').execute();
  for (const table of ['sync_link', 'sync_hubs']) {
    for (const col of ['repair_unconverged', 'repaired_rows', 'repair_checked_at', 'repair_state']) await db.schema.alterTable(table).dropColumn(col).execute();
  }
}
