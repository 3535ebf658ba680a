import type { Settings } from '../../model/settings.ts';
import { addDays, toMinutes, weekdayOf } from './clock-time.ts';

export type HoursSettings = Pick<Settings, 'opening_hours' | 'closed_dates'>;

/** One opening interval of a calendar date, in minutes after that date's midnight. */
export interface Window {
  /** first minute open */
  start: number;
  /** first minute closed (≤ 1440) */
  end: number;
  /** minute the interval's slot grid is anchored at (may be negative for last night's tail) */
  anchor: number;
}

/**
 * A day is closed when it is a closed date or its weekday has no opening hours. A closed
 * day takes no bookings at all, including the after-midnight tail of the night before.
 */
export function isClosedDay(s: HoursSettings, date: string): boolean {
  return s.closed_dates.includes(date) || (s.opening_hours[weekdayOf(date)] ?? []).length === 0;
}

/** An interval whose close is at or before its open runs past midnight. */
function span(interval: { open: string; close: string }): [number, number] {
  const open = toMinutes(interval.open);
  let close = toMinutes(interval.close);
  if (close <= open) close += 1440;
  return [open, close];
}

/**
 * The times a calendar date is open: its own intervals up to midnight, plus the part after
 * midnight of the previous day's intervals (unless that day was closed). Empty when closed.
 */
export function openWindows(s: HoursSettings, date: string): Window[] {
  if (isClosedDay(s, date)) return [];
  const out: Window[] = [];
  const yesterday = addDays(date, -1);
  if (!isClosedDay(s, yesterday)) {
    for (const iv of s.opening_hours[weekdayOf(yesterday)] ?? []) {
      const [open, close] = span(iv);
      if (close > 1440) out.push({ start: 0, end: close - 1440, anchor: open - 1440 });
    }
  }
  for (const iv of s.opening_hours[weekdayOf(date)] ?? []) {
    const [open, close] = span(iv);
    out.push({ start: open, end: Math.min(close, 1440), anchor: open });
  }
  return out;
}

/** Whether a booking may start at this wall minute of the date (inside an open window). */
export function isOpenAt(s: HoursSettings, date: string, minutes: number): boolean {
  return openWindows(s, date).some((w) => minutes >= w.start && minutes < w.end);
}
