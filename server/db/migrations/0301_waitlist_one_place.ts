import { type Kysely, sql } from 'kysely';

// One guest, one place in the queue: a phone or email may be on a restaurant's waitlist once
// while waiting or notified. The join checks first (for a clear answer); these indexes make
// two joins racing on PostgreSQL (each unable to see the other's row) end with one entry.
// Live and sandbox are separate queues: a test walk-in with a real guest's phone must not
// keep that guest out of the live queue, so the mode is part of each index.
const ACTIVE = sql<boolean>`status in ('waiting', 'notified')`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const contact of ['phone', 'email']) {
    await db.schema
      .createIndex(`waitlist_entries_active_${contact}`)
      .on('waitlist_entries')
      .columns(['restaurant_id', 'livemode', contact])
      .unique()
      .where(sql<boolean>`${ACTIVE} and ${sql.ref(contact)} is not null`)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const contact of ['phone', 'email']) await db.schema.dropIndex(`waitlist_entries_active_${contact}`).execute();
}
