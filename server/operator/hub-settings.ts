import type { Executor } from '../db/records.ts';

/**
 * The hub's own settings (hub_settings: one JSON value a name, never synced): what the owner set
 * in the dashboard for backups and for mail and SMS transports.
 */
export async function readHubSetting<T extends object>(db: Executor, name: string): Promise<Partial<T>> {
  const row = await db.selectFrom('hub_settings').select('value').where('name', '=', name).executeTakeFirst();
  return row ? (JSON.parse(row.value) as Partial<T>) : {};
}

export async function writeHubSetting(db: Executor, name: string, nowMs: number, value: object): Promise<void> {
  const text = JSON.stringify(value);
  const updated = Math.floor(nowMs / 1000);
  await db
    .insertInto('hub_settings')
    .values({ name, value: text, updated })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: text, updated }))
    .execute();
}
