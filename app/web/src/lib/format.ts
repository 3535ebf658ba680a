import { computed } from '@preact/signals';
import { language } from './i18n.ts';
import { session } from './session.ts';

const LOCALES: Record<string, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', it: 'it-IT' };

export const locale = computed(() => LOCALES[language.value] ?? 'en-GB');
const currency = () => (session.value?.restaurant.currency ?? 'eur').toUpperCase();
const timeZone = () => session.value?.restaurant.timezone ?? 'UTC';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function fmt<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = cache.get(key) as T | undefined;
  if (!f) cache.set(key, (f = make()));
  return f;
}

/** Digits after the decimal point of the restaurant's currency (2 for EUR, 0 for JPY). */
export function minorDigits(cur = currency()): number {
  return fmt(`digits:${cur}`, () => new Intl.NumberFormat('en', { style: 'currency', currency: cur })).resolvedOptions().maximumFractionDigits ?? 2;
}

/** An amount in the smallest unit (the API's integers), shown in the restaurant's currency. */
export function money(minor: number | null | undefined, cur = currency()): string {
  if (minor === null || minor === undefined) return '—';
  const f = fmt(`money:${locale.value}:${cur}`, () => new Intl.NumberFormat(locale.value, { style: 'currency', currency: cur }));
  return f.format(minor / 10 ** minorDigits(cur));
}

/** What a person typed ("12,50" or "12.50") as the smallest unit; null when it is not an amount. */
export function parseMoney(text: string, cur = currency()): number | null {
  const t = text.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  return Math.round(Number(t) * 10 ** minorDigits(cur));
}

/** The smallest unit as an input's text, e.g. 1250 → "12.50". */
export const moneyInput = (minor: number | null | undefined, cur = currency()): string =>
  minor === null || minor === undefined ? '' : (minor / 10 ** minorDigits(cur)).toFixed(minorDigits(cur));

type Style = 'datetime' | 'date' | 'time' | 'weekday';
const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  datetime: { dateStyle: 'medium', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
  weekday: { weekday: 'short', day: 'numeric', month: 'short' },
};

/** A moment (Unix seconds) on the restaurant's wall clock, whatever the device's own zone. */
export function when(unixSeconds: number | null | undefined, style: Style = 'datetime'): string {
  if (!unixSeconds) return '—';
  const tz = timeZone();
  return fmt(`dt:${locale.value}:${tz}:${style}`, () => new Intl.DateTimeFormat(locale.value, { ...OPTIONS[style], timeZone: tz })).format(new Date(unixSeconds * 1000));
}

/** Hours and minutes of a moment on a given zone's wall clock (the screens' clock), in the reader's format. */
export function clockTime(unixSeconds: number, tz: string | undefined): string {
  return fmt(`clock:${locale.value}:${tz ?? ''}`, () => new Intl.DateTimeFormat(locale.value, { hour: '2-digit', minute: '2-digit', timeZone: tz })).format(unixSeconds * 1000);
}

/** Today's date (YYYY-MM-DD) at the restaurant. */
export function todayAtRestaurant(offsetDays = 0): string {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return fmt(`iso:${timeZone()}`, () => new Intl.DateTimeFormat('en-CA', { timeZone: timeZone(), year: 'numeric', month: '2-digit', day: '2-digit' })).format(d);
}

/** "12 min" since a moment, for the board. */
export function minutesSince(unixSeconds: number | null | undefined, nowMs = Date.now()): number | null {
  if (!unixSeconds) return null;
  return Math.max(0, Math.floor((nowMs / 1000 - unixSeconds) / 60));
}

/** A calendar date (YYYY-MM-DD, already the restaurant's) in the venue's language: "26 Nov 2026", "26.11.2026". */
export function calendarDate(iso: string, style: 'date' | 'weekday' | 'short' | 'long' = 'date'): string {
  const ms = Date.parse(`${iso.slice(0, 10)}T12:00:00Z`);
  if (Number.isNaN(ms)) return iso;
  const options: Intl.DateTimeFormatOptions =
    style === 'short' ? { day: 'numeric', month: 'short' } : style === 'long' ? { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' } : OPTIONS[style];
  return fmt(`cal:${locale.value}:${style}`, () => new Intl.DateTimeFormat(locale.value, { ...options, timeZone: 'UTC' })).format(new Date(ms));
}

/** A percentage (12.5 → "12.5 %", "12,5 %"), with a sign when asked. */
export const percent = (n: number, signed = false) =>
  fmt(`pct:${locale.value}:${signed}`, () => new Intl.NumberFormat(locale.value, { style: 'percent', maximumFractionDigits: 1, ...(signed ? { signDisplay: 'exceptZero' as const } : {}) })).format(n / 100);

export const number = (n: number, digits = 0) =>
  fmt(`num:${locale.value}:${digits}`, () => new Intl.NumberFormat(locale.value, { maximumFractionDigits: digits, minimumFractionDigits: digits })).format(n);
