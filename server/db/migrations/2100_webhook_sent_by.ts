import type { Kysely } from 'kysely';

/**
 * Which side of a linked restaurant sends an endpoint's webhooks (issue 29): `cloud` (the
 * default, as before) or `hub`, for a receiver on the venue's own network (a kitchen display,
 * a local integration) that the cloud cannot reach and that must get its events while the
 * internet is down. The column replicates with the endpoint.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('sent_by', 'text', (c) => c.notNull().defaultTo('cloud')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('sent_by').execute();
}
