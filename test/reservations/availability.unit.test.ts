import { describe, expect, it } from 'vitest';
import { computeAvailability, type AvailabilityInput } from '../../server/domain/reservations/availability.ts';
import { wallToUnix } from '../../server/domain/reservations/clock-time.ts';
import type { Sitting, TableFit } from '../../server/domain/reservations/table-fit.ts';

const TZ = 'Europe/Berlin';
const at = (date: string, hhmm: string) => wallToUnix(date, Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3)), TZ)!;
const table = (id: string, capacity: number, min_capacity: number | null = null, number = capacity): TableFit => ({ id, number, capacity, min_capacity });

// `lastSeating` 0 (any time open) unless a test says otherwise: most tests here are about the grid itself
function run(over: Partial<AvailabilityInput> & { hours?: AvailabilityInput['settings']['opening_hours']; closed?: string[]; buffer?: number; lastSeating?: number | null }) {
  const { hours, closed, buffer, lastSeating, ...rest } = over;
  return computeAvailability({
    date: '2026-11-02',
    partySize: 2,
    slotInterval: 30,
    durationMinutes: 90,
    settings: {
      timezone: TZ,
      opening_hours: hours ?? { monday: [{ open: '12:00', close: '14:00' }] },
      closed_dates: closed ?? [],
      reservation_buffer_minutes: buffer ?? 0,
      last_seating_before_close_minutes: lastSeating === undefined ? 0 : lastSeating,
    },
    tables: [table('a', 2), table('b', 4)],
    sittings: [],
    now: 0,
    ...rest,
  });
}
const times = (r: ReturnType<typeof run>) => r.slots.map((s) => s.time);

describe('availability engine', () => {
  it('lays slots on the opening-hours grid with the spec shape', () => {
    const r = run({});
    expect(Object.keys(r).sort()).toEqual(['closed', 'date', 'object', 'open', 'party_size', 'slot_interval_minutes', 'slots']);
    expect(r).toMatchObject({ object: 'reservation_availability', date: '2026-11-02', party_size: 2, slot_interval_minutes: 30, open: true, closed: false });
    expect(times(r)).toEqual(['12:00', '12:30', '13:00', '13:30']);
    expect(r.slots[0]).toEqual({ time: '12:00', available: true, remaining_capacity: 6, total_reservations: 0 });
  });

  it('offers a last seating the sitting\'s length before closing by default, or the venue\'s own', () => {
    // closing at 23:30: a 90-minute sitting starts by 22:00 (issue 41.16: 23:00 was offered)
    const hours = { monday: [{ open: '18:00', close: '23:30' }] };
    expect(times(run({ hours, lastSeating: null })).at(-1)).toBe('22:00');
    expect(times(run({ hours, lastSeating: null, durationMinutes: 120 })).at(-1)).toBe('21:30');
    expect(times(run({ hours, lastSeating: 45 })).at(-1)).toBe('22:30');
    expect(times(run({ hours, lastSeating: 0 })).at(-1)).toBe('23:00');
    // an interval past midnight counts back from its real close: 01:00 less 90 minutes
    const late = { friday: [{ open: '20:00', close: '01:00' }], saturday: [{ open: '12:00', close: '14:00' }] };
    expect(times(run({ date: '2026-11-06', hours: late, lastSeating: null })).at(-1)).toBe('23:30');
    expect(times(run({ date: '2026-11-07', hours: late, lastSeating: null }))).toEqual(['12:00', '12:30']);
    expect(times(run({ date: '2026-11-07', hours: late, lastSeating: 30 }))).toEqual(['00:00', '00:30', '12:00', '12:30', '13:00', '13:30']);
  });

  it('answers a weekday without hours and a closed date as closed, with no slots', () => {
    expect(run({ date: '2026-11-03' })).toMatchObject({ open: false, closed: true, slots: [] });
    expect(run({ closed: ['2026-11-02'] })).toMatchObject({ open: false, closed: true, slots: [] });
  });

  it('runs a close after midnight into the next calendar date', () => {
    const hours = { friday: [{ open: '22:00', close: '01:00' }], saturday: [{ open: '12:00', close: '13:00' }] };
    expect(times(run({ date: '2026-11-06', hours }))).toEqual(['22:00', '22:30', '23:00', '23:30']);
    expect(times(run({ date: '2026-11-07', hours }))).toEqual(['00:00', '00:30', '12:00', '12:30']);
    // a closed Friday takes its after-midnight tail with it
    expect(times(run({ date: '2026-11-07', hours, closed: ['2026-11-06'] }))).toEqual(['12:00', '12:30']);
  });

  it('skips wall times a spring DST change removes and measures sittings in real time', () => {
    const date = '2026-03-29';
    const hours = { sunday: [{ open: '00:00', close: '05:00' }] };
    expect(times(run({ date, hours }))).toEqual(['00:00', '00:30', '01:00', '01:30', '03:00', '03:30', '04:00', '04:30']);
    // 90 minutes from 01:00 CET end at 03:30 CEST: 03:00 is still taken, 03:30 is free again.
    const sittings: Sitting[] = [{ table_id: 'a', starts_at: at(date, '01:00'), ends_at: at(date, '01:00') + 90 * 60 }];
    const r = run({ date, hours, sittings, tables: [table('a', 2)] });
    const slot = (t: string) => r.slots.find((s) => s.time === t)!;
    expect(slot('03:00').available).toBe(false);
    expect(slot('03:30').available).toBe(true);
  });

  it('offers an autumn DST hour once, at its first occurrence', () => {
    const date = '2026-10-25';
    const hours = { sunday: [{ open: '00:00', close: '04:00' }] };
    expect(times(run({ date, hours }))).toEqual(['00:00', '00:30', '01:00', '01:30', '02:00', '02:30', '03:00', '03:30']);
    expect(at(date, '02:00')).toBe(Date.UTC(2026, 9, 25, 0, 0) / 1000);
  });

  it('keeps only tables that fit the party (capacity and min_capacity)', () => {
    const tables = [table('two', 2, 1), table('four', 4, 3), table('eight', 8, 5)];
    expect(run({ tables, partySize: 2 }).slots[0]).toMatchObject({ available: true, remaining_capacity: 2 });
    expect(run({ tables, partySize: 3 }).slots[0]).toMatchObject({ available: true, remaining_capacity: 4 });
    expect(run({ tables, partySize: 6 }).slots[0]).toMatchObject({ available: true, remaining_capacity: 8 });
    expect(run({ tables, partySize: 9 }).slots[0]).toMatchObject({ available: false, remaining_capacity: 0 });
  });

  it('narrows to from/to (inclusive) and honours a slot interval override', () => {
    expect(times(run({ from: 12 * 60 + 30, to: 13 * 60 }))).toEqual(['12:30', '13:00']);
    expect(times(run({ slotInterval: 45 }))).toEqual(['12:00', '12:45', '13:30']);
    expect(run({ slotInterval: 15 }).slots).toHaveLength(8);
  });

  it('blocks a table for the sitting plus the buffer and counts reservations truly', () => {
    const d = '2026-11-02';
    const sittings: Sitting[] = [
      { table_id: 'a', starts_at: at(d, '12:00'), ends_at: at(d, '13:00') },
      { table_id: null, starts_at: at(d, '12:00'), ends_at: at(d, '12:30') },
      { table_id: 'b', starts_at: at(d, '12:00'), ends_at: at(d, '13:30'), released: true },
    ];
    const r = run({ sittings, slotInterval: 15, buffer: 15, hours: { monday: [{ open: '12:00', close: '15:00' }] } });
    const slot = (t: string) => r.slots.find((s) => s.time === t)!;
    // table a: sitting 12:00–13:00 plus 15 minutes either side; b was released (completed)
    expect(slot('12:00')).toEqual({ time: '12:00', available: true, remaining_capacity: 4, total_reservations: 3 });
    expect(slot('12:30')).toMatchObject({ remaining_capacity: 4, total_reservations: 2 });
    expect(slot('13:00')).toMatchObject({ remaining_capacity: 4, total_reservations: 1 });
    expect(slot('13:15')).toMatchObject({ remaining_capacity: 6, total_reservations: 1 });
    expect(slot('13:30')).toMatchObject({ remaining_capacity: 6, total_reservations: 0 });
    // a new sitting of 90 minutes ending 12:00 leaves no buffer before a's 12:00 sitting
    const early = (buffer: number) =>
      run({ sittings: sittings.slice(0, 1), buffer, tables: [table('a', 2)], hours: { monday: [{ open: '10:30', close: '12:00' }] } });
    expect(early(15).slots.map((s) => s.available)).toEqual([false, false, false]);
    expect(early(0).slots.map((s) => s.available)).toEqual([true, false, false]);
  });

  it('marks slots already past as unavailable', () => {
    const r = run({ now: at('2026-11-02', '12:40') });
    expect(r.slots.map((s) => s.available)).toEqual([false, false, true, true]);
    expect(r.slots[0].remaining_capacity).toBe(6);
  });
});
