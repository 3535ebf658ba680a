import type { Settings } from '../../model/settings.ts';
import { toHhmm, wallClockOf } from './clock-time.ts';
import { isClosedDay, openWindows } from './opening-hours.ts';
import { fits, groupByTable, isFree, type Sitting, type TableFit } from './table-fit.ts';

export const DEFAULT_DURATION_MINUTES = 90;
export const DEFAULT_PARTY_SIZE = 2;

export interface AvailabilityInput {
  date: string;
  partySize: number;
  /** minutes between slot starts */
  slotInterval: number;
  /** how long the sitting a slot offers lasts */
  durationMinutes: number;
  /** inclusive bounds on slot start times, minutes after midnight */
  from?: number;
  to?: number;
  settings: Pick<Settings, 'timezone' | 'opening_hours' | 'closed_dates' | 'reservation_buffer_minutes'>;
  /** active tables */
  tables: TableFit[];
  /** reservations that are not cancelled or no-show (completed ones marked released) */
  sittings: Sitting[];
  /** Unix seconds */
  now: number;
}

export interface Slot {
  time: string;
  available: boolean;
  remaining_capacity: number;
  total_reservations: number;
}

/** The bookable start times of a date: wall-clock minutes on each window's grid, with their instants. */
export function slotTimes(input: Pick<AvailabilityInput, 'date' | 'slotInterval' | 'from' | 'to' | 'settings'>): { minutes: number; at: number }[] {
  const { date, slotInterval: step, settings } = input;
  const seen = new Map<number, number>();
  const toUnix = wallClockOf(date, settings.timezone);
  for (const w of openWindows(settings, date)) {
    // The grid runs from the interval's opening time, also across midnight.
    const first = w.anchor + Math.max(0, Math.ceil((w.start - w.anchor) / step)) * step;
    for (let m = first; m < w.end; m += step) {
      if (seen.has(m)) continue;
      if (input.from !== undefined && m < input.from) continue;
      if (input.to !== undefined && m > input.to) continue;
      const at = toUnix(m);
      if (at !== null) seen.set(m, at); // wall times skipped by a DST change get no slot
    }
  }
  return [...seen].sort((a, b) => a[0] - b[0]).map(([minutes, at]) => ({ minutes, at }));
}

/** A slot with what `available` needs once the current time is known. */
export interface FrameSlot extends Omit<Slot, 'available'> {
  /** Unix seconds the slot starts */
  at: number;
  /** some table that fits the party is free for the sitting */
  free: boolean;
}

/** Everything about a date's availability except what depends on the current time. */
export interface AvailabilityFrame {
  date: string;
  party_size: number;
  slot_interval_minutes: number;
  closed: boolean;
  slots: FrameSlot[];
}

/**
 * Availability of one date, before the clock is applied. Pure: everything it needs is passed in.
 * - `free`: a table that fits the party is free for the whole sitting plus the buffer on both sides;
 * - `remaining_capacity`: seats of those free, fitting tables;
 * - `total_reservations`: reservations whose sitting overlaps the slot.
 */
export function availabilityFrame(input: Omit<AvailabilityInput, 'now'>): AvailabilityFrame {
  const base = { date: input.date, party_size: input.partySize, slot_interval_minutes: input.slotInterval };
  if (isClosedDay(input.settings, input.date)) return { ...base, closed: true, slots: [] };
  const bufferSec = input.settings.reservation_buffer_minutes * 60;
  const durationSec = input.durationMinutes * 60;
  const stepSec = input.slotInterval * 60;
  const candidates = input.tables.filter((t) => fits(t, input.partySize));
  const byTable = groupByTable(input.sittings);
  const slots = slotTimes(input).map(({ minutes, at }) => {
    let remaining = 0;
    let free = false;
    for (const t of candidates) {
      if (isFree(t, byTable, at, at + durationSec, bufferSec)) {
        remaining += t.capacity;
        free = true;
      }
    }
    let total = 0;
    for (const s of input.sittings) if (s.starts_at < at + stepSec && at < s.ends_at) total++;
    return { time: toHhmm(minutes), at, free, remaining_capacity: remaining, total_reservations: total };
  });
  return { ...base, closed: false, slots };
}

/** The API answer at `now` (Unix seconds): slots already started are not available. */
export function presentAvailability(frame: AvailabilityFrame, now: number) {
  return {
    object: 'reservation_availability' as const,
    date: frame.date,
    party_size: frame.party_size,
    slot_interval_minutes: frame.slot_interval_minutes,
    open: !frame.closed,
    closed: frame.closed,
    slots: frame.slots.map(
      (s): Slot => ({ time: s.time, available: s.free && s.at >= now, remaining_capacity: s.remaining_capacity, total_reservations: s.total_reservations }),
    ),
  };
}

export const computeAvailability = (input: AvailabilityInput) => presentAvailability(availabilityFrame(input), input.now);
