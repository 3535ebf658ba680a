import { DateTime, IANAZone } from 'luxon';
import { weekdayOfDayNumber, type Weekday } from '../../model/weekdays.ts';

/** HH:MM → minutes after midnight. */
export const toMinutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** minutes after midnight (0..1439) → HH:MM */
export const toHhmm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const utcMidnight = (date: string): number => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));

/** The calendar date `days` after a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  return new Date(utcMidnight(date) + days * 86_400_000).toISOString().slice(0, 10);
}

/** monday … sunday of a YYYY-MM-DD date. */
export function weekdayOf(date: string): Weekday {
  return weekdayOfDayNumber(new Date(utcMidnight(date)).getUTCDay());
}

/**
 * The Unix second at which a wall-clock date and time happen in a timezone, or null when
 * that wall time does not exist (skipped by a spring DST change). A wall time that happens
 * twice (autumn change) means its first occurrence.
 */
export function wallToUnix(date: string, minutes: number, zone: string): number | null {
  const [year, month, day] = date.split('-').map(Number);
  const hour = Math.floor(minutes / 60);
  const minute = minutes % 60;
  const dt = DateTime.fromObject({ year, month, day, hour, minute }, { zone });
  if (!dt.isValid || dt.hour !== hour || dt.minute !== minute || dt.day !== day) return null;
  // luxon resolves an ambiguous wall time to the later offset; prefer the earlier one.
  const earlier = dt.minus({ hours: 1 });
  const chosen = earlier.hour === hour && earlier.minute === minute && earlier.day === day ? earlier : dt;
  return Math.floor(chosen.toSeconds());
}

/**
 * wallToUnix for many minutes of one date. When the zone keeps one UTC offset from the day
 * before to the day after (every day but the two DST days), a wall time is plain
 * arithmetic; otherwise each time goes through luxon's DST-aware conversion.
 */
export function wallClockOf(date: string, zone: string): (minutes: number) => number | null {
  const midnight = utcMidnight(date);
  const tz = IANAZone.create(zone);
  const before = tz.offset(midnight - 86_400_000);
  if (before === tz.offset(midnight + 2 * 86_400_000)) {
    const base = midnight / 1000 - before * 60;
    return (minutes) => base + minutes * 60;
  }
  return (minutes) => wallToUnix(date, minutes, zone);
}

/** The restaurant's wall-clock date and minute-of-day at a Unix second. */
export function unixToWall(unix: number, zone: string): { date: string; minutes: number; weekday: number } {
  const dt = DateTime.fromSeconds(unix, { zone });
  return { date: dt.toISODate()!, minutes: dt.hour * 60 + dt.minute, weekday: dt.weekday };
}

/** Unix second of the first moment of a date in a timezone (midnight may not exist on DST days). */
export function dayStartUnix(date: string, zone: string): number {
  return Math.floor(DateTime.fromISO(date, { zone }).startOf('day').toSeconds());
}
