import { z } from 'zod';
import { f } from './fields.ts';
import { WEEKDAYS } from './weekdays.ts';
import { isRealDate } from './dates.ts';

const interval = z.object({ open: f.hhmm(), close: f.hhmm() }).strict();

const validTimezone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/**
 * The restaurant's settings, one JSON document. Each field has a default so an old
 * document read by a newer server is always complete. `opening_hours` maps weekdays to
 * intervals; a close at or before the open means the interval runs past midnight.
 */
/** The back office's languages (app/web/src/i18n). */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it'] as const;

export const settingsShape = {
  /** the back office's language for everyone who has not chosen their own */
  language: z.enum(LANGUAGES),
  timezone: z.string().min(1).max(64).refine(validTimezone, 'is not an IANA time zone'),
  currency: z.string().regex(/^[a-z]{3}$/, 'must be a lowercase ISO 4217 code like eur'),
  default_tax_rate: f.taxRate(),
  /** menu prices already include their tax (VAT countries); false: tax is added on top */
  prices_include_tax: z.boolean(),
  /** a tip above this percent of the amount it is left on needs a manager's approval */
  max_tip_percent: f.int(0, 1000),
  opening_hours: z.partialRecord(z.enum(WEEKDAYS), z.array(interval).max(6)),
  closed_dates: z.array(z.string().refine(isRealDate, 'must be a real date YYYY-MM-DD')).max(366),
  slot_duration_minutes: f.int(5, 240),
  reservation_buffer_minutes: f.int(0, 240),
  /**
   * How long before closing the last booking may start. null: the sitting's length, so a
   * booking ends by closing (a 90-minute sitting at a venue closing at 23:30 starts by 22:00);
   * 0: any time the venue is open. What availability offers; staff may still book later by hand.
   */
  last_seating_before_close_minutes: f.int(0, 720).nullable(),
  auto_confirm_max_party_size: f.int(0, 1000),
  /**
   * When guests' waitlist joins and feedback must carry a solved bot check: `when_busy` only past
   * a rate (an address or the restaurant sending many), `always` on every one.
   */
  guest_bot_check: z.enum(['when_busy', 'always']),
  /**
   * Kitchen tickets the hub missed (lines rung in on the cloud while the hub was stopped or cut
   * off) print when the lines reach it, marked LATE with the time they were rung in; false: they
   * print nothing, and the kitchen works from its screens (server/domain/printers/catch-up.ts).
   */
  print_missed_tickets: z.boolean(),
  waitlist: z
    .object({
      enabled: z.boolean(),
      max_party_size: f.int(1, 100),
      message: z.string().max(500).nullable(),
      channels: z.array(z.enum(['email', 'sms'])).max(2),
      /** minutes a notified party has to come back before the entry expires */
      notify_expiry_minutes: f.int(1, 240),
      /** used for the wait estimate before there is any seating history */
      default_wait_minutes_per_party: f.int(1, 120),
    })
    .strict(),
};

export const Settings = z.object(settingsShape);
export type Settings = z.infer<typeof Settings>;

/**
 * What setup offers for `prices_include_tax`: where VAT is the norm, menus show what the guest
 * pays (the euro countries, the UK, Switzerland, the Nordics, …); in the US and Canada tax is
 * added at the till. Only an offer: the owner decides, and a restaurant made without asking
 * keeps today's tax-on-top.
 */
const TAX_ON_TOP = new Set(['usd', 'cad']);
export const pricesIncludeTaxByDefault = (currency: string): boolean => !TAX_ON_TOP.has(currency.trim().toLowerCase());

export const defaultSettings = (
  init: { timezone?: string; currency?: string; default_tax_rate?: number; prices_include_tax?: boolean } = {},
): Settings => ({
  language: 'en',
  timezone: init.timezone ?? 'Europe/Berlin',
  currency: init.currency ?? 'eur',
  default_tax_rate: init.default_tax_rate ?? 0.19,
  prices_include_tax: init.prices_include_tax ?? false,
  max_tip_percent: 100,
  opening_hours: {},
  closed_dates: [],
  slot_duration_minutes: 30,
  reservation_buffer_minutes: 15,
  last_seating_before_close_minutes: null,
  auto_confirm_max_party_size: 8,
  guest_bot_check: 'when_busy',
  print_missed_tickets: true,
  waitlist: {
    enabled: false,
    max_party_size: 8,
    message: null,
    channels: ['email', 'sms'],
    notify_expiry_minutes: 15,
    default_wait_minutes_per_party: 10,
  },
});

/** Reads the stored document, filling any field a newer version added. */
export function readSettings(row: { settings: string; timezone: string; currency: string; default_tax_rate: number }): Settings {
  const stored = JSON.parse(row.settings) as Partial<Settings>;
  const base = defaultSettings({ timezone: row.timezone, currency: row.currency, default_tax_rate: row.default_tax_rate });
  return {
    ...base,
    ...stored,
    timezone: row.timezone,
    currency: row.currency,
    default_tax_rate: row.default_tax_rate,
    waitlist: { ...base.waitlist, ...stored.waitlist },
  };
}
