import { sql, type Kysely } from 'kysely';

/**
 * Who sent each line's round to the stations (rang it in, or fired its held course): a check
 * opened by one server and added to by another heads each round with its own sender, on the
 * kitchen screens and the printed ticket. Lines from before name the check's server.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_items').addColumn('sent_by', 'text').execute();
  await sql`update order_items set sent_by = (select o.server_id from orders o where o.id = order_items.order_id) where sent_to_kitchen_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_items').dropColumn('sent_by').execute();
}
