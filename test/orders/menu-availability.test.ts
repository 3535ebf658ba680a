import { describe, expect, it } from 'vitest';
import { categoryAvailable, categoryWindowOpen } from '../../server/domain/orders/menu-availability.ts';
import { wallClock } from '../../server/domain/wall-clock.ts';

const BERLIN = 'Europe/Berlin';
// 2026-11-06 is a Friday; Berlin is UTC+1 in November.
const berlin = (day: number, hh: number, mm = 0) => wallClock(Date.UTC(2026, 10, day, hh - 1, mm), BERLIN);
const category = (over: Record<string, unknown> = {}) => ({
  id: 'cat_a',
  is_active: 1,
  parent_category_id: null,
  available_from: null,
  available_until: null,
  available_days: JSON.stringify(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  ...over,
});

describe('wall clock of a restaurant', () => {
  it('reads the local minute, date and weekday, and yesterday', () => {
    expect(berlin(6, 0, 30)).toMatchObject({ minute: 30, today: '2026-11-06', weekday: 'friday', yesterday: '2026-11-05', yesterdayWeekday: 'thursday' });
  });

  it('answers per zone and per UTC minute, never from another zone or minute', () => {
    const at = Date.UTC(2026, 10, 6, 22, 59, 59, 999);
    expect(wallClock(at, BERLIN)).toMatchObject({ minute: 23 * 60 + 59, weekday: 'friday' });
    expect(wallClock(at, 'America/New_York')).toMatchObject({ minute: 17 * 60 + 59, weekday: 'friday' });
    expect(wallClock(at + 1, BERLIN)).toMatchObject({ minute: 0, today: '2026-11-07', weekday: 'saturday' });
    expect(wallClock(at, BERLIN).today).toBe('2026-11-06');
  });

  it('follows daylight saving: 02:30 UTC on 2026-03-29 is 04:30 in Berlin', () => {
    expect(wallClock(Date.UTC(2026, 2, 29, 2, 30), BERLIN)).toMatchObject({ minute: 4 * 60 + 30, weekday: 'sunday' });
  });
});

describe('category windows', () => {
  const late = category({ available_from: '22:00', available_until: '02:00', available_days: JSON.stringify(['friday']) });

  it('a window past midnight belongs to the day it starts on', () => {
    expect(categoryWindowOpen(late, berlin(6, 21, 59))).toBe(false);
    expect(categoryWindowOpen(late, berlin(6, 22, 0))).toBe(true);
    expect(categoryWindowOpen(late, berlin(7, 1, 59))).toBe(true); // Saturday, the tail of Friday
    expect(categoryWindowOpen(late, berlin(7, 2, 0))).toBe(false);
    expect(categoryWindowOpen(late, berlin(7, 22, 30))).toBe(false); // Saturday is not a day of it
    expect(categoryWindowOpen(late, berlin(6, 1, 0))).toBe(false); // Thursday night was not either
  });

  it('days alone, and a plain daytime window', () => {
    const weekdaysOnly = category({ available_days: JSON.stringify(['monday', 'friday']) });
    expect(categoryWindowOpen(weekdaysOnly, berlin(6, 12))).toBe(true);
    expect(categoryWindowOpen(weekdaysOnly, berlin(7, 12))).toBe(false);
    const lunch = category({ available_from: '11:30', available_until: '14:00' });
    expect(categoryWindowOpen(lunch, berlin(7, 11, 29))).toBe(false);
    expect(categoryWindowOpen(lunch, berlin(7, 11, 30))).toBe(true);
    expect(categoryWindowOpen(lunch, berlin(7, 14, 0))).toBe(false);
  });

  it('a category is closed when an ancestor is closed or inactive', () => {
    const parent = category({ id: 'cat_p', available_from: '18:00', available_until: '23:00' });
    const child = category({ id: 'cat_c', parent_category_id: 'cat_p' });
    const byId = new Map([parent, child].map((c) => [c.id, c]));
    expect(categoryAvailable(byId, 'cat_c', berlin(6, 19))).toBe(true);
    expect(categoryAvailable(byId, 'cat_c', berlin(6, 12))).toBe(false);
    byId.set('cat_p', { ...parent, is_active: 0 });
    expect(categoryAvailable(byId, 'cat_c', berlin(6, 19))).toBe(false);
  });
});
