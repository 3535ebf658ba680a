import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Log positions per restaurant (db/log-positions.ts): a row per restaurant holds its last
 * stamp and is the lock its writes take, so restaurants of one cloud never wait on each
 * other. On PostgreSQL `seq` comes from a sequence taken under that lock; the hub's SQLite
 * keeps counting in node_state (one writer at a time there anyway).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('log_clocks')
    // '' for entries of no restaurant
    .addColumn('restaurant_id', 'text', (c) => c.primaryKey())
    .addColumn('hlc', 'text')
    .execute();
  // every restaurant known so far starts after the node's last stamp: none runs backwards
  await sql`insert into log_clocks (restaurant_id, hlc)
    select s.r, (select hlc from node_state where id = 1)
    from (select distinct coalesce(restaurant_id, '') as r from change_log union select id from restaurants union select '') as s`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create sequence change_log_seq`.execute(db);
    await sql`select setval('change_log_seq', seq) from node_state where id = 1 and seq > 0`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`update node_state set seq = greatest(seq, (select coalesce(max(seq), 0) from change_log))`.execute(db);
    await sql`drop sequence change_log_seq`.execute(db);
  }
  await db.schema.dropTable('log_clocks').execute();
}
