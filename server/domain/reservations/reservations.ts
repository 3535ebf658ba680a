import { presentReservation } from '../../presenters/reservations.ts';
import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { locksRows } from '../../db/row-locks.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { findOrCreateCustomer, normalizeEmail, normalizePhone } from '../customers/match-customer.ts';
import { emitEvent } from '../events/emit.ts';
import { getSettings } from '../restaurants/restaurants.ts';
import type { Settings } from '../../model/settings.ts';
import { seconds } from '../time.ts';
import { DEFAULT_DURATION_MINUTES } from './availability.ts';
import { toHhmm, toMinutes, unixToWall, wallToUnix } from './clock-time.ts';
import { modeOf } from '../modes.ts';
import { activeTables, sittingsBetween, type FloorScope } from './floor.ts';
import { guestHistory } from './guest-history.ts';
import { lockFloor } from './lock.ts';
import { noShowRisk } from './no-show-risk.ts';
import { isOpenAt, isClosedDay } from './opening-hours.ts';
import { isTerminal } from '../../model/reservations.ts';
import { fits, freeTables } from './table-fit.ts';
import { OPEN_STATUSES } from '../../model/orders.ts';
import { findTable } from '../tables/tables.ts';
import type { ReservationRow } from '../../db/tables/reservations.table.ts';

export interface ReservationInput {
  guest_name: string;
  party_size: number;
  date: string;
  time: string;
  guest_email?: string | null;
  guest_phone?: string | null;
  duration_minutes?: number;
  table?: string | null;
  notes?: string | null;
  special_requests?: string | null;
  tags?: string[];
  source?: string;
}

/** A booking may start this long ago (a walk-in entered a few minutes late), no earlier. */
export const PAST_GRACE_SECONDS = 15 * 60;
/** Bookings are taken up to a year ahead. */
export const MAX_AHEAD_SECONDS = 366 * 86_400;

/**
 * A reservation as one key sees it: of the key's restaurant and of its mode, like orders.
 * Live staff never see an integrator's test bookings and a sandbox key cannot touch a real
 * guest's; the other mode's reservation is simply not found.
 *
 * `forUpdate`: the caller writes the reservation back, so on PostgreSQL its row stays locked
 * until the transaction ends (db/row-locks.ts): an arrival and a cancel, or the no-show sweep
 * and an arrival, then run one after the other and the second sees the first.
 */
export async function findReservation(db: Executor, scope: FloorScope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = db
    .selectFrom('reservations')
    .selectAll()
    .where('restaurant_id', '=', scope.restaurantId)
    .where('livemode', '=', modeOf(scope))
    .where('id', '=', id);
  if (opts.forUpdate && locksRows(db)) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** When the booking starts, refused (4xx) on a closed day, outside hours, in the past or too far ahead. */
function startOf(settings: Settings, date: string, time: string, nowSec: number): number {
  if (isClosedDay(settings, date)) {
    throw new ApiError('restaurant_closed', `The restaurant is closed on ${date}.`, 'date');
  }
  if (!isOpenAt(settings, date, toMinutes(time))) {
    throw new ApiError('restaurant_closed', `The restaurant is not open at ${time} on ${date}.`, 'time');
  }
  const at = wallToUnix(date, toMinutes(time), settings.timezone);
  if (at === null) {
    throw new ApiError('parameter_invalid', `${time} does not exist on ${date} in ${settings.timezone} (the clocks skip it).`, 'time');
  }
  if (at < nowSec - PAST_GRACE_SECONDS) throw new ApiError('parameter_invalid', `${date} ${time} is in the past.`, 'time');
  if (at > nowSec + MAX_AHEAD_SECONDS) throw new ApiError('parameter_invalid', 'Reservations are taken up to 366 days ahead.', 'date');
  return at;
}

function contact(input: { guest_email?: string | null; guest_phone?: string | null }) {
  const email = normalizeEmail(input.guest_email);
  const phone = input.guest_phone ? normalizePhone(input.guest_phone) : null;
  if (input.guest_phone && !phone) throw new ApiError('parameter_invalid', 'guest_phone is not a phone number.', 'guest_phone');
  return { email, phone };
}

interface Placement {
  /** the restaurant's tables, held only by this mode's bookings */
  scope: FloorScope;
  partySize: number;
  start: number;
  end: number;
  bufferSec: number;
  /** the table asked for; undefined = choose one */
  table: string | null | undefined;
  /** keep this table if it still works (an update that did not name a table) */
  keep?: string | null;
  /** the reservation being moved, which must not block itself */
  exceptId?: string;
}

/**
 * The table a sitting gets. A named table must exist here, be active, fit the party and be
 * free for the sitting plus buffer (else 409 table_unavailable). Without one: the smallest
 * free table that fits; none free → 409; no table in the venue fits the party at all → no
 * table (the booking waits, pending, for staff to combine tables).
 */
async function placeTable(trx: Executor, p: Placement): Promise<string | null> {
  if (p.table === null) return null;
  const tables = await activeTables(trx, p.scope.restaurantId);
  const sittings = await sittingsBetween(trx, p.scope, p.start - p.bufferSec, p.end + p.bufferSec, p.exceptId);
  const free = freeTables(tables, sittings, p.partySize, p.start, p.end, p.bufferSec);
  if (p.table !== undefined) {
    const row = await trx.selectFrom('tables').selectAll().where('restaurant_id', '=', p.scope.restaurantId).where('id', '=', p.table).executeTakeFirst();
    if (!row) throw notFound('table', p.table, 'table');
    if (!row.is_active) throw new ApiError('table_unavailable', `Table ${row.number} is inactive.`, 'table');
    if (!fits(row, p.partySize)) {
      throw new ApiError('table_unavailable', `Table ${row.number} seats ${row.min_capacity ?? 1}–${row.capacity}, not a party of ${p.partySize}.`, 'table');
    }
    if (!free.some((t) => t.id === row.id)) {
      throw new ApiError('table_unavailable', `Table ${row.number} is already booked at that time (including the buffer between sittings).`, 'table');
    }
    return row.id;
  }
  if (p.keep && free.some((t) => t.id === p.keep)) return p.keep;
  if (free.length > 0) return free[0].id;
  if (!tables.some((t) => fits(t, p.partySize))) return null;
  throw new ApiError('table_unavailable', `No table for a party of ${p.partySize} is free at that time.`, 'table');
}

async function riskOf(
  trx: Executor,
  scope: FloorScope,
  zone: string,
  r: Pick<ReservationRow, 'customer_id' | 'guest_email' | 'guest_phone' | 'party_size' | 'starts_at' | 'created'>,
  exceptId?: string,
) {
  const history = await guestHistory(trx, scope, { customerId: r.customer_id, email: r.guest_email, phone: r.guest_phone }, exceptId);
  const wall = unixToWall(r.starts_at, zone);
  return noShowRisk({
    ...history,
    leadMinutes: Math.max(0, (r.starts_at - r.created) / 60),
    partySize: r.party_size,
    weekday: wall.weekday,
    hour: Math.floor(wall.minutes / 60),
    hasEmail: r.guest_email !== null,
    hasPhone: r.guest_phone !== null,
  });
}

export async function createReservation(trx: Executor, actor: Actor, input: ReservationInput) {
  const now = seconds(actor);
  const { email, phone } = contact(input);
  const settings = await getSettings(trx, actor.restaurantId);
  const start = startOf(settings, input.date, input.time, now);
  const duration = input.duration_minutes ?? DEFAULT_DURATION_MINUTES;
  const end = start + duration * 60;
  await lockFloor(trx, actor.restaurantId);
  const tableId = await placeTable(trx, {
    scope: actor,
    partySize: input.party_size,
    start,
    end,
    bufferSec: settings.reservation_buffer_minutes * 60,
    table: input.table ?? undefined,
  });
  const customer = await findOrCreateCustomer(trx, actor, { name: input.guest_name, email, phone });
  const base = { customer_id: customer?.id ?? null, guest_email: email, guest_phone: phone, party_size: input.party_size, starts_at: start, created: now };
  const row = await insertRecord(trx, 'reservations', {
    id: newId(PREFIXES.reservation, actor.now),
    restaurant_id: actor.restaurantId,
    guest_name: input.guest_name,
    ...base,
    date: input.date,
    time: input.time,
    ends_at: end,
    duration_minutes: duration,
    table_id: tableId,
    // docs/integrators/reservations.md: confirmed at once when a table is held and the party is small enough
    status: tableId !== null && input.party_size <= settings.auto_confirm_max_party_size ? 'confirmed' : 'pending',
    arrived_at: null,
    seated_at: null,
    completed_at: null,
    cancelled_at: null,
    source: input.source ?? 'api',
    notes: input.notes || null,
    special_requests: input.special_requests || null,
    tags: JSON.stringify(input.tags ?? []),
    no_show_risk: await riskOf(trx, actor, settings.timezone, base),
    livemode: actor.livemode ? 1 : 0,
    updated: now,
  });
  await emitEvent(trx, actor, 'reservation.created', presentReservation(row));
  return row;
}

const MOVES = ['date', 'time', 'party_size', 'duration_minutes', 'table'] as const;

export async function updateReservation(trx: Executor, actor: Actor, id: string, input: Partial<ReservationInput>) {
  const now = seconds(actor);
  const current = await findReservation(trx, actor, id, { forUpdate: true });
  if (!current) throw notFound('reservation', id);
  const moves = MOVES.filter((k) => input[k] !== undefined);
  if (moves.length > 0 && isTerminal(current.status)) {
    throw new ApiError('state_conflict', `The reservation is ${current.status}; its ${moves[0]} can no longer change.`, moves[0]);
  }
  const settings = await getSettings(trx, actor.restaurantId);
  const patch: Partial<ReservationRow> = { updated: now };

  const date = input.date ?? current.date;
  const time = input.time ?? current.time;
  const partySize = input.party_size ?? current.party_size;
  const duration = input.duration_minutes ?? current.duration_minutes;
  let start = current.starts_at;
  if (date !== current.date || time !== current.time) start = startOf(settings, date, time, now);
  const end = start + duration * 60;

  if (moves.length > 0) {
    await lockFloor(trx, actor.restaurantId);
    const tableId = await placeTable(trx, {
      scope: actor,
      partySize,
      start,
      end,
      bufferSec: settings.reservation_buffer_minutes * 60,
      table: input.table,
      keep: current.table_id,
      exceptId: current.id,
    });
    Object.assign(patch, { date, time, party_size: partySize, duration_minutes: duration, starts_at: start, ends_at: end, table_id: tableId });
  }

  if (input.guest_email !== undefined || input.guest_phone !== undefined || input.guest_name !== undefined) {
    const next = contact({
      guest_email: input.guest_email !== undefined ? input.guest_email : current.guest_email,
      guest_phone: input.guest_phone !== undefined ? input.guest_phone : current.guest_phone,
    });
    const name = input.guest_name ?? current.guest_name;
    const customer = await findOrCreateCustomer(trx, actor, { name, email: next.email, phone: next.phone });
    Object.assign(patch, { guest_name: name, guest_email: next.email, guest_phone: next.phone, customer_id: customer?.id ?? null });
  }
  if (input.notes !== undefined) patch.notes = input.notes || null;
  if (input.special_requests !== undefined) patch.special_requests = input.special_requests || null;
  if (input.tags !== undefined) patch.tags = JSON.stringify(input.tags);
  if (input.source !== undefined) patch.source = input.source;

  patch.no_show_risk = await riskOf(trx, actor, settings.timezone, { ...current, ...patch, created: current.created }, current.id);
  const row = (await updateRecord(trx, 'reservations', current, patch))!;
  await emitEvent(trx, actor, 'reservation.updated', presentReservation(row));
  return row;
}

export interface WalkInSitting {
  table: string;
  guest_name: string;
  party_size: number;
  customer_id: string | null;
  guest_email: string | null;
  guest_phone: string | null;
  notes: string | null;
  /** where the party came from, e.g. 'waitlist' */
  source: string;
}

/**
 * A party seated now at a named table without a booking (a waitlist party): a reservation that
 * starts seated, from this minute for the usual sitting, so the floor screen, the day book and
 * availability all see the table taken. The table must be this restaurant's, active, fit the
 * party, be free for the sitting (plus buffer), hold no seated party and no open check (else
 * 409 table_unavailable). Opening hours are not checked: staff seat whom they let in.
 */
export async function seatWalkIn(trx: Executor, actor: Actor, input: WalkInSitting) {
  const now = seconds(actor);
  const settings = await getSettings(trx, actor.restaurantId);
  const wall = unixToWall(now, settings.timezone);
  const start = now - (now % 60);
  const duration = DEFAULT_DURATION_MINUTES;
  await lockFloor(trx, actor.restaurantId);
  // a party still sitting past its booked end, or a check opened without a booking, keeps the table
  const seated = await trx
    .selectFrom('reservations')
    .select('id')
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', modeOf(actor))
    .where('table_id', '=', input.table)
    .where('status', '=', 'seated')
    .executeTakeFirst();
  const check = await trx
    .selectFrom('orders')
    .select('id')
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', modeOf(actor))
    .where('table_id', '=', input.table)
    .where('status', 'in', ['draft', ...OPEN_STATUSES])
    .executeTakeFirst();
  const table = await findTable(trx, actor.restaurantId, input.table);
  if (table && (seated || check)) throw new ApiError('table_unavailable', `Table ${table.number} is occupied.`, 'table');
  const tableId = (await placeTable(trx, {
    scope: actor,
    partySize: input.party_size,
    start,
    end: start + duration * 60,
    bufferSec: settings.reservation_buffer_minutes * 60,
    table: input.table,
  }))!;
  const base = { customer_id: input.customer_id, guest_email: input.guest_email, guest_phone: input.guest_phone, party_size: input.party_size, starts_at: start, created: now };
  const row = await insertRecord(trx, 'reservations', {
    id: newId(PREFIXES.reservation, actor.now),
    restaurant_id: actor.restaurantId,
    guest_name: input.guest_name,
    ...base,
    date: wall.date,
    time: toHhmm(wall.minutes),
    ends_at: start + duration * 60,
    duration_minutes: duration,
    table_id: tableId,
    status: 'seated',
    arrived_at: now,
    seated_at: now,
    completed_at: null,
    cancelled_at: null,
    source: input.source,
    notes: input.notes,
    special_requests: null,
    tags: '[]',
    no_show_risk: 0,
    livemode: modeOf(actor),
    updated: now,
  });
  await emitEvent(trx, actor, 'reservation.created', presentReservation(row));
  return row;
}
