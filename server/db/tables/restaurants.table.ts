import type { Generated, Selectable } from 'kysely';

export interface RestaurantsTable {
  id: string;
  slug: string;
  /** JSON list of the slugs this restaurant had before, newest last: old guest links resolve through it */
  former_slugs: Generated<string>;
  name: string;
  plan: string;
  currency: string;
  timezone: string;
  default_tax_rate: number;
  /** JSON object, see server/api/settings/schema.ts */
  settings: string;
  /** Per-restaurant HMAC secret for guest tokens (waitlist). Never leaves the server. */
  guest_secret: string;
  created: number;
  updated: number;
}

/** A row as read. */
export type RestaurantRow = Selectable<RestaurantsTable>;

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    restaurants: true;
  }
}
