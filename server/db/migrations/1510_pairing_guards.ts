import type { Kysely } from 'kysely';

/**
 * Pairing codes that cannot be guessed at scale. A code is a locator (its first digits, kept
 * in plain text) and a secret (the rest): a wrong try names the code it was aimed at, so each
 * code counts its own failures and dies after a few. Codes made before this have no locator
 * and simply expire (they live ten minutes).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_pairings').addColumn('locator', 'text').execute();
  await db.schema.alterTable('device_pairings').addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('device_pairings_locator').on('device_pairings').columns(['locator', 'expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('device_pairings_locator').execute();
  await db.schema.alterTable('device_pairings').dropColumn('failures').execute();
  await db.schema.alterTable('device_pairings').dropColumn('locator').execute();
}
