import { wallClock } from '../wall-clock.ts';
import type { Settings } from '../../model/settings.ts';

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether the venue is open at `nowMs`, read in the restaurant's time zone. An interval
 * whose close is at or before its open runs past midnight: its tail counts on the next
 * calendar day. A closed date closes the intervals that start on it (its overnight tail too).
 */
export function isOpenAt(settings: Pick<Settings, 'timezone' | 'opening_hours' | 'closed_dates'>, nowMs: number): boolean {
  const { minute, today, weekday, yesterday, yesterdayWeekday } = wallClock(nowMs, settings.timezone);
  const closed = new Set(settings.closed_dates);

  if (!closed.has(today)) {
    for (const iv of settings.opening_hours[weekday] ?? []) {
      const open = minutesOf(iv.open);
      const close = minutesOf(iv.close);
      if (close > open ? minute >= open && minute < close : minute >= open) return true;
    }
  }
  if (!closed.has(yesterday)) {
    for (const iv of settings.opening_hours[yesterdayWeekday] ?? []) {
      const open = minutesOf(iv.open);
      const close = minutesOf(iv.close);
      if (close <= open && minute < close) return true;
    }
  }
  return false;
}
