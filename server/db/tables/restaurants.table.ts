export interface RestaurantsTable {
  id: string;
  slug: string;
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
