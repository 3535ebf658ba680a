import { DateTime } from 'luxon';
import { WEEKDAYS, type Weekday } from '../model/weekdays.ts';

/** A restaurant's wall clock at one moment, to the minute. */
export interface WallClock {
  utcMinute: number;
  /** minutes since local midnight */
  minute: number;
  /** local date, YYYY-MM-DD */
  today: string;
  weekday: Weekday;
  yesterday: string;
  yesterdayWeekday: Weekday;
}

const lastMinute = new Map<string, WallClock>();

/**
 * The wall clock of a time zone at `nowMs`. Offsets only change on whole minutes, so the
 * last answer per zone holds for the rest of its UTC minute: every guest page and guest
 * order asks, and a zone conversion is costly.
 */
export function wallClock(nowMs: number, zone: string): WallClock {
  const utcMinute = Math.floor(nowMs / 60_000);
  const hit = lastMinute.get(zone);
  if (hit?.utcMinute === utcMinute) return hit;
  const local = DateTime.fromMillis(nowMs, { zone });
  const before = local.minus({ days: 1 });
  const made: WallClock = {
    utcMinute,
    minute: local.hour * 60 + local.minute,
    today: local.toISODate()!,
    weekday: WEEKDAYS[local.weekday - 1],
    yesterday: before.toISODate()!,
    yesterdayWeekday: WEEKDAYS[before.weekday - 1],
  };
  lastMinute.set(zone, made);
  return made;
}
