import { useEffect, useRef, useState } from 'preact/hooks';
import { GET, PATCH, POST, getAll, patchChanged } from '../lib/client.ts';
import { todayAtRestaurant } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { queryParam } from '../lib/router.ts';
import { can } from '../lib/session.ts';
import { freeTables, SITTING_MINUTES } from '../lib/free-tables.ts';
import { refId, type Reservation, type Table } from '../lib/types.ts';
import { Badge, Button, Dialog, Empty, ErrorNote, Field, Loading, PageHeader, SelectField, TextArea, useAction, useLoad } from '../ui/kit.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';

interface Slot {
  time: string;
  available: boolean;
  remaining_capacity: number;
}

// the one tap at the door: what comes next for a booking in each state
const NEXT: Record<string, Reservation['status'][]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['arrived', 'seated', 'no_show', 'cancelled'],
  arrived: ['seated', 'cancelled'],
  seated: ['completed'],
};

const TONES: Record<string, 'info' | 'warn' | 'good' | 'bad'> = { confirmed: 'info', arrived: 'warn', seated: 'good', cancelled: 'bad', no_show: 'bad' };
const tone = (s: string) => TONES[s] ?? 'neutral';

/** The day's bookings (live) and the tables they sit at, one row per table; the booking opened by ?open=. */
function useReservationsData() {
  // ?date=…&open=res_… (a link from elsewhere, e.g. a sync conflict) opens that day and booking
  const [date, setDate] = useState(/^\d{4}-\d{2}-\d{2}$/.test(queryParam('date') ?? '') ? queryParam('date')! : todayAtRestaurant());
  const [tables] = useLoad(() => getAll('/v1/tables'));
  const [list, error, reload] = useLoad(async () => (await getAll('/v1/reservations', { query: { date } })).sort((a, b) => a.starts_at - b.starts_at), [date]);
  useEffect(() => live.listen(['reservations'], () => void reload(), () => void reload()), [date]);
  const [openId, setOpenId] = useState<string | null>(queryParam('open'));
  const opened = list?.find((r) => r.id === openId) ?? null;
  const setOpen = (r: Reservation | null) => setOpenId(r?.id ?? null);
  // after a booking is saved the day book shows its date (the same date is simply re-read)
  const showDate = async (booked: string) => (booked === date ? reload() : setDate(booked));
  // every table gets its row, booked or not, so the free ones show at a glance
  const rows: { label: string; items: Reservation[] }[] = [
    ...(tables ?? []).sort((a, b) => a.number - b.number).map((tbl) => ({ label: t('floor.tableN', { n: tbl.number }), items: (list ?? []).filter((r) => refId(r.table) === tbl.id) })),
    { label: t('reservations.unassigned'), items: (list ?? []).filter((r) => !refId(r.table) || !(tables ?? []).some((x) => x.id === refId(r.table))) },
  ].filter((row, i, all) => i < all.length - 1 || row.items.length);
  return { date, setDate, tables, list, error, reload, opened, setOpen, showDate, rows };
}

/** The day book: each table's bookings of the day in time order, live, with the door's one-tap moves. */
export function ReservationsPage() {
  const { date, setDate, tables, list, error, reload, opened, setOpen, showDate, rows } = useReservationsData();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Reservation | null>(null);
  const [act, busy, actError] = useAction();
  const writable = can('reservations:write');
  const move = (r: Reservation, status: Reservation['status']) => act(async () => (await PATCH('/v1/reservations/{id}/status', { path: { id: r.id }, body: { status } }), await reload()));

  // the day's time axis: the restaurant's midnight of the date, and the hours the bookings span
  const dayStart = list?.length ? list[0].starts_at - (Number(list[0].time.slice(0, 2)) * 3600 + Number(list[0].time.slice(3, 5)) * 60) : 0;
  const firstHour = Math.min(11, ...(list ?? []).map((r) => Math.floor((r.starts_at - dayStart) / 3600)));
  const lastHour = Math.max(23, ...(list ?? []).map((r) => Math.ceil((r.ends_at - dayStart) / 3600)));
  const span = { from: firstHour * 3600, to: lastHour * 3600 };
  const hours = Array.from({ length: lastHour - firstHour }, (_, i) => firstHour + i);

  // a wide day scrolls sideways: bring the first booking (else the current hour) into view
  const book = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = book.current;
    if (!el || !list) return;
    const first = el.querySelector<HTMLElement>('.booking');
    const track = el.querySelector<HTMLElement>('.daybook-row .daybook-track');
    if (first && track) el.scrollLeft = Math.max(0, track.offsetLeft + first.offsetLeft - 140);
  }, [list]);


  return (
    <>
      <PageHeader title={t('reservations.title')}>
        {writable ? (
          <Button variant="primary" onClick={() => setCreating(true)}>
            {t('reservations.new')}
          </Button>
        ) : null}
      </PageHeader>
      <div class="filters">
        <Field label={t('orders.date')} type="date" value={date} onInput={(e) => setDate((e.target as HTMLInputElement).value)} />
        <p class="board-count">{list ? t('reservations.count', { n: list.filter((r) => !['cancelled', 'no_show'].includes(r.status)).length, guests: list.filter((r) => !['cancelled', 'no_show'].includes(r.status)).reduce((s, r) => s + r.party_size, 0) }) : ''}</p>
      </div>
      <ErrorNote error={error ?? actError} />
      {!list ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Empty>{t('reservations.none')}</Empty>
      ) : (
        // it scrolls sideways, so it takes focus for the arrow keys (no booking to tab to on an empty day)
        <div class="daybook" ref={book} tabIndex={0} role="region" aria-label={t('reservations.dayBook')} style={{ '--hours': String(hours.length) } as Record<string, string>}>
          {list.length === 0 ? <p class="muted">{t('reservations.none')}</p> : null}
          <div class="daybook-hours" aria-hidden="true">
            <span class="daybook-table" />
            <div class="daybook-track">
              {hours.map((h) => (
                <span key={h} class="daybook-hour" style={{ left: `${((h * 3600 - span.from) / (span.to - span.from)) * 100}%` }}>
                  {String(h % 24).padStart(2, '0')}:00
                </span>
              ))}
            </div>
          </div>
          <div role="list" aria-label={t('reservations.dayBook')} class="daybook-rows">
          {rows.map((row) => (
            <div class="daybook-row" role="listitem" key={row.label}>
              <h2 class="daybook-table">{row.label}</h2>
              <div class="daybook-track" style={{ '--hours': String(hours.length) } as Record<string, string>}>
                {row.items.map((r) => {
                  const start = r.starts_at - dayStart;
                  const left = ((start - span.from) / (span.to - span.from)) * 100;
                  const width = ((r.duration_minutes * 60) / (span.to - span.from)) * 100;
                  return (
                    <button
                      type="button"
                      key={r.id}
                      class={`booking status-${r.status}`}
                      style={{ left: `${left}%`, width: `${width}%` }}
                      onClick={() => setOpen(r)}
                      title={`${r.time} ${r.guest.name} · ${t('reservations.party', { n: r.party_size })}`}
                    >
                      <span>
                        {r.time} · {t('reservations.party', { n: r.party_size })}
                      </span>
                      <strong class="booking-name">{r.guest.name}</strong>
                      <span>
                        {t(`resStatus.${r.status}` as Key)}
                        {r.no_show_risk !== null && r.no_show_risk >= 50 ? ` · ${t('reservations.risk')}` : ''}
                      </span>
                    </button>
                  );
                })}
              </div>
            </div>
          ))}
          </div>
        </div>
      )}
      {opened ? (
        // kit: a Dialog, not a FormDialog: a booking's facts and its next steps (buttons), no form
        <Dialog title={`${opened.time} · ${opened.guest.name}`} open onClose={() => setOpen(null)}>
          <dl class="facts">
            <dt>{t('reservations.partySize')}</dt>
            <dd>{opened.party_size}</dd>
            <dt>{t('orders.status')}</dt>
            <dd>
              <Badge tone={tone(opened.status)}>{t(`resStatus.${opened.status}` as Key)}</Badge>
            </dd>
            <dt>{t('reservations.length')}</dt>
            <dd>{opened.duration_minutes} min</dd>
            {opened.guest.phone || opened.guest.email ? (
              <>
                <dt>{t('guests.contact')}</dt>
                <dd>{[opened.guest.phone, opened.guest.email].filter(Boolean).join(' · ')}</dd>
              </>
            ) : null}
            {opened.no_show_risk !== null ? (
              <>
                <dt>{t('reservations.risk')}</dt>
                <dd>{opened.no_show_risk >= 50 ? <Badge tone="warn">{opened.no_show_risk} %</Badge> : `${opened.no_show_risk} %`}</dd>
              </>
            ) : null}
            {opened.notes ? (
              <>
                <dt>{t('order.notes')}</dt>
                <dd>{opened.notes}</dd>
              </>
            ) : null}
          </dl>
          {writable && NEXT[opened.status] ? (
            <div class="dialog-actions">
              {opened.status === 'pending' || opened.status === 'confirmed' ? (
                <Button
                  onClick={() => {
                    setEditing(opened);
                    setOpen(null);
                  }}
                >
                  {t('common.edit')}
                </Button>
              ) : null}
              {NEXT[opened.status].map((st) => (
                <Button key={st} variant={st === 'cancelled' || st === 'no_show' ? 'danger' : 'primary'} disabled={busy} onClick={() => move(opened, st)}>
                  {t(`resAction.${st}` as Key)}
                </Button>
              ))}
            </div>
          ) : null}
        </Dialog>
      ) : null}
      {creating ? <BookingDialog date={date} tables={tables ?? []} onClose={() => setCreating(false)} onSaved={showDate} /> : null}
      {editing ? <BookingDialog date={editing.date} booking={editing} tables={tables ?? []} onClose={() => setEditing(null)} onSaved={showDate} /> : null}
    </>
  );
}

/** A new booking, or (with `booking`) a move to another time, table or party size. */
function BookingDialog({ date: initialDate, booking, tables, onClose, onSaved }: { date: string; booking?: Reservation; tables: Table[]; onClose: () => void; onSaved: (date: string) => Promise<void> | void }) {
  const [form, setForm] = useState({
    guest_name: booking?.guest.name ?? '',
    guest_phone: booking?.guest.phone ?? '',
    guest_email: booking?.guest.email ?? '',
    party_size: String(booking?.party_size ?? 2),
    date: initialDate,
    time: booking?.time ?? '',
    table: refId(booking?.table) ?? '',
    notes: booking?.notes ?? '',
  });
  const [opened] = useState(form);
  const [slots, setSlots] = useState<Slot[] | null>(null);
  // no slot at all on a venue with no opening hours is not "full": say what is missing
  const [venue] = useLoad(async () => (can('settings:read') ? GET('/v1/settings') : undefined));
  const hoursSet = venue ? Object.values(venue.opening_hours ?? {}).some((d) => d.length > 0) : undefined;
  const buffer = venue?.reservation_buffer_minutes;
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  useEffect(() => {
    setSlots(null);
    GET('/v1/reservations/availability', { query: { date: form.date, party_size: Number(form.party_size) || 1 } }).then(
      (a) => setSlots(a.slots),
      () => setSlots([]),
    );
  }, [form.date, form.party_size]);
  // a booking being moved keeps its own time on offer (its own seats count as taken)
  const open = (slots ?? []).filter((s) => s.available || (booking && s.time === booking.time && form.date === booking.date));
  // the table picker offers the tables that fit and are free at the chosen time, as the server decides
  const [dayBookings] = useLoad(() => getAll('/v1/reservations', { query: { date: form.date } }), [form.date]);
  const chosen = form.time || open[0]?.time;
  const offered = (() => {
    if (!chosen || !dayBookings) return tables.filter((x) => x.is_active);
    // a sitting's wall-clock start on this date; its end by its length (the buffer on top, both sides)
    const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
    const start = minutesOf(chosen) * 60;
    const duration = (booking?.duration_minutes ?? SITTING_MINUTES) * 60;
    const sameDay = dayBookings.map((r) => ({ ...r, starts_at: minutesOf(r.time) * 60, ends_at: minutesOf(r.time) * 60 + r.duration_minutes * 60 }));
    const free = freeTables(tables, sameDay, { party: Number(form.party_size) || 1, start, end: start + duration, bufferSec: (buffer ?? 0) * 60, exceptId: booking?.id });
    const current = tables.find((x) => x.id === form.table);
    return current && !free.includes(current) ? [current, ...free] : free;
  })();
  const bodyOf = (f: typeof form) => ({
    guest_name: f.guest_name,
    guest_phone: f.guest_phone || null,
    guest_email: f.guest_email || null,
    party_size: Number(f.party_size),
    date: f.date,
    time: f.time || open[0]?.time,
    // moving a booking without naming a table keeps the one it has
    ...(f.table || !booking ? { table: f.table || null } : {}),
    notes: f.notes || null,
  });
  const save = async () => {
    const body = bodyOf(form);
    await (booking ? patchChanged('/v1/reservations/{id}', { path: { id: booking.id } }, body, bodyOf(opened)) : POST('/v1/reservations', { body: { ...body, source: 'staff' } }));
    await onSaved(body.date);
    onClose();
  };
  return (
    <FormDialog
      title={booking ? t('reservations.edit', { name: booking.guest.name }) : t('reservations.new')}
      onClose={onClose}
      onSubmit={save}
      submitLabel={booking ? t('common.save') : t('reservations.book')}
      ready={open.length > 0}
    >
      <Field label={t('reservations.guest')} name="guest_name" required value={form.guest_name} onInput={set('guest_name')} />
      <div class="row">
        <Field label={t('reservations.phone')} name="guest_phone" type="tel" value={form.guest_phone} onInput={set('guest_phone')} />
        <Field label={t('login.email')} name="guest_email" type="email" value={form.guest_email} onInput={set('guest_email')} />
      </div>
      <div class="row">
        <Field label={t('reservations.partySize')} name="party_size" type="number" min={1} max={100} required value={form.party_size} onInput={set('party_size')} />
        <Field label={t('orders.date')} name="date" type="date" required value={form.date} onInput={set('date')} />
      </div>
      {slots === null ? (
        <Loading />
      ) : open.length === 0 ? (
        hoursSet === false ? (
          <p class="hint">
            {t('first.needHours')} {can('settings:write') ? <a href="/app/settings#hours">{t('first.openHours')}</a> : null}
          </p>
        ) : (
          <p class="hint">{t('reservations.noSlots')}</p>
        )
      ) : (
        <SelectField
          label={t('reservations.time')}
          name="time"
          value={form.time || open[0].time}
          onChange={(v) => setForm({ ...form, time: v })}
          options={open.map((s) => ({ value: s.time, label: `${s.time} · ${t('reservations.seatsLeft', { n: s.remaining_capacity })}` }))}
        />
      )}
      <SelectField
        label={t('orders.table')}
        name="table"
        value={form.table}
        onChange={(v) => setForm({ ...form, table: v })}
        options={[{ value: '', label: t('reservations.anyTable') }, ...offered.map((x) => ({ value: x.id, label: `${x.number} (${x.capacity})` }))]}
      />
      <TextArea label={t('order.notes')} name="notes" value={form.notes} onInput={(v) => setForm({ ...form, notes: v })} />
    </FormDialog>
  );
}
