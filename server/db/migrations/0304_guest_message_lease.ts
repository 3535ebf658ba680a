import type { Kysely } from 'kysely';

// Processes sharing one database claim an outbox message before sending it, so a notice goes
// out once, not once per process. Unix seconds, like next_attempt_at.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('guest_messages').addColumn('lease_until', 'bigint').execute();
  await db.schema.alterTable('guest_messages').addColumn('lease_owner', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('guest_messages').dropColumn('lease_owner').execute();
  await db.schema.alterTable('guest_messages').dropColumn('lease_until').execute();
}
