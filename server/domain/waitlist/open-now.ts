import { DateTime } from 'luxon';
import { WEEKDAYS } from '../../http/fields.ts';
import type { Settings } from '../restaurants/settings.ts';

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether the venue is open at `nowMs`, read in the restaurant's time zone. An interval
 * whose close is at or before its open runs past midnight: its tail counts on the next
 * calendar day. A closed date closes the intervals that start on it (its overnight tail too).
 */
export function isOpenAt(settings: Pick<Settings, 'timezone' | 'opening_hours' | 'closed_dates'>, nowMs: number): boolean {
  const { minute, today, weekday, yesterday, yesterdayWeekday } = localMinute(nowMs, settings.timezone);
  const closed = new Set(settings.closed_dates);

  if (!closed.has(today)) {
    for (const iv of settings.opening_hours[WEEKDAYS[weekday - 1]] ?? []) {
      const open = minutesOf(iv.open);
      const close = minutesOf(iv.close);
      if (close > open ? minute >= open && minute < close : minute >= open) return true;
    }
  }
  if (!closed.has(yesterday)) {
    for (const iv of settings.opening_hours[WEEKDAYS[yesterdayWeekday - 1]] ?? []) {
      const open = minutesOf(iv.open);
      const close = minutesOf(iv.close);
      if (close <= open && minute < close) return true;
    }
  }
  return false;
}

interface LocalMinute {
  utcMinute: number;
  minute: number;
  today: string;
  weekday: number;
  yesterday: string;
  yesterdayWeekday: number;
}

const lastMinute = new Map<string, LocalMinute>();

/**
 * The wall clock of a time zone, to the minute. Offsets only change on whole minutes, so the
 * last answer per zone holds for the rest of its UTC minute: every guest page asks, and a
 * zone conversion is costly.
 */
function localMinute(nowMs: number, zone: string): LocalMinute {
  const utcMinute = Math.floor(nowMs / 60_000);
  const hit = lastMinute.get(zone);
  if (hit?.utcMinute === utcMinute) return hit;
  const local = DateTime.fromMillis(nowMs, { zone });
  const before = local.minus({ days: 1 });
  const made = {
    utcMinute,
    minute: local.hour * 60 + local.minute,
    today: local.toISODate()!,
    weekday: local.weekday,
    yesterday: before.toISODate()!,
    yesterdayWeekday: before.weekday,
  };
  lastMinute.set(zone, made);
  return made;
}
