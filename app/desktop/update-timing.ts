import { DateTime } from 'luxon';
import type { HoursSettings } from '../../server/domain/reservations/opening-hours.ts';
import { addDays, toMinutes, weekdayOf } from '../../server/domain/reservations/clock-time.ts';

export interface ServiceHours extends HoursSettings {
  timezone: string;
}

/** Minutes kept free of installs before opening and after closing (setup, late tables, cashing up). */
export const SERVICE_MARGIN_MINUTES = 60;
/** With no opening hours set, the only time we dare: 03:00–05:00 local. */
const FALLBACK_QUIET = { start: 180, end: 300 };

/**
 * Whether an update may be installed now: outside every opening interval of yesterday, today
 * and tomorrow (a bar open until 02:00 is in service at 01:00, even on a day it does not
 * open itself, unlike bookings), widened by the margin.
 * Unknown hours mean no: a restart during service costs more than a late update.
 */
export function isQuietTime(nowMs: number, hours: ServiceHours | null, marginMinutes = SERVICE_MARGIN_MINUTES): boolean {
  if (!hours) return false;
  const local = DateTime.fromMillis(nowMs, { zone: hours.timezone });
  if (!local.isValid) return false;
  const today = local.toFormat('yyyy-MM-dd');
  const minute = local.hour * 60 + local.minute;
  const anyHours = Object.values(hours.opening_hours).some((list) => (list ?? []).length > 0);
  if (!anyHours) return minute >= FALLBACK_QUIET.start && minute < FALLBACK_QUIET.end;
  for (const [offset, date] of [[-1440, addDays(today, -1)], [0, today], [1440, addDays(today, 1)]] as const) {
    if (hours.closed_dates.includes(date)) continue;
    for (const iv of hours.opening_hours[weekdayOf(date)] ?? []) {
      const start = toMinutes(iv.open);
      let end = toMinutes(iv.close);
      if (end <= start) end += 1440;
      if (minute >= offset + start - marginMinutes && minute < offset + end + marginMinutes) return false;
    }
  }
  return true;
}
