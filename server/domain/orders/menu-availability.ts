import type { Selectable } from 'kysely';
import type { MenuCategoriesTable } from '../../db/tables/menu-categories.table.ts';
import type { WallClock } from '../wall-clock.ts';
import { MAX_CATEGORY_DEPTH } from '../menu/categories.ts';

type Category = Pick<Selectable<MenuCategoriesTable>, 'id' | 'is_active' | 'parent_category_id' | 'available_from' | 'available_until' | 'available_days'>;

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether one category's own window holds at local time `at`. A window whose end is at or
 * before its start runs past midnight (like opening hours); its after-midnight part belongs
 * to the day it started, so a Friday 22:00–02:00 window is open at 01:00 on Saturday.
 */
export function categoryWindowOpen(cat: Category, at: WallClock): boolean {
  const days = JSON.parse(cat.available_days) as string[];
  const now = at.minute;
  if (!cat.available_from && !cat.available_until) return days.includes(at.weekday);
  const from = cat.available_from ? minutesOf(cat.available_from) : 0;
  const until = cat.available_until ? minutesOf(cat.available_until) : 24 * 60;
  if (from < until) return days.includes(at.weekday) && now >= from && now < until;
  if (now >= from) return days.includes(at.weekday);
  return now < until && days.includes(at.yesterdayWeekday);
}

/** A category is orderable when it and every ancestor is active and inside its window. */
export function categoryAvailable(byId: Map<string, Category>, id: string, at: WallClock): boolean {
  let cursor: string | null = id;
  for (let depth = 0; cursor && depth <= MAX_CATEGORY_DEPTH; depth++) {
    const cat = byId.get(cursor);
    if (!cat || cat.is_active !== 1 || !categoryWindowOpen(cat, at)) return false;
    cursor = cat.parent_category_id;
  }
  // Still climbing past the nesting limit (a cycle, or a chain deeper than allowed): the
  // ancestors not looked at could be off, so the category does not count as available.
  return cursor === null;
}
