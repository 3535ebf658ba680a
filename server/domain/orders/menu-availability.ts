import { DateTime } from 'luxon';
import type { Selectable } from 'kysely';
import type { MenuCategoriesTable } from '../../db/tables/menu-categories.table.ts';

type Category = Pick<Selectable<MenuCategoriesTable>, 'id' | 'is_active' | 'parent_category_id' | 'available_from' | 'available_until' | 'available_days'>;

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The restaurant's wall clock at `nowMs`. */
export const localTime = (nowMs: number, timezone: string) => DateTime.fromMillis(nowMs, { zone: timezone });

/**
 * Whether one category's own window holds at local time `at`. A window whose end is at or
 * before its start runs past midnight (like opening hours); its after-midnight part belongs
 * to the day it started, so a Friday 22:00–02:00 window is open at 01:00 on Saturday.
 */
export function categoryWindowOpen(cat: Category, at: DateTime): boolean {
  const days = JSON.parse(cat.available_days) as string[];
  const weekday = (d: DateTime) => d.setLocale('en').weekdayLong!.toLowerCase();
  const now = at.hour * 60 + at.minute;
  if (!cat.available_from && !cat.available_until) return days.includes(weekday(at));
  const from = cat.available_from ? minutesOf(cat.available_from) : 0;
  const until = cat.available_until ? minutesOf(cat.available_until) : 24 * 60;
  if (from < until) return days.includes(weekday(at)) && now >= from && now < until;
  if (now >= from) return days.includes(weekday(at));
  return now < until && days.includes(weekday(at.minus({ days: 1 })));
}

/** A category is orderable when it and every ancestor is active and inside its window. */
export function categoryAvailable(byId: Map<string, Category>, id: string, at: DateTime): boolean {
  let cursor: string | null = id;
  for (let depth = 0; cursor && depth < 17; depth++) {
    const cat = byId.get(cursor);
    if (!cat || cat.is_active !== 1 || !categoryWindowOpen(cat, at)) return false;
    cursor = cat.parent_category_id;
  }
  return true;
}
