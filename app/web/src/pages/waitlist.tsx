import { useEffect, useState } from 'preact/hooks';
import { DELETE, GET, POST, getAll } from '../lib/client.ts';
import { minutesSince, todayAtRestaurant } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { can } from '../lib/session.ts';
import { freeTables, SITTING_MINUTES } from '../lib/free-tables.ts';
import { OPEN_STATUSES, refId, type WaitlistEntry } from '../lib/types.ts';
import { TileGrid } from '../ui/tile-grid.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';
import { Badge, Button, Dialog, Empty, ErrorNote, Field, Loading, PageHeader, useAction, useLoad } from '../ui/kit.tsx';

/** The queue at the door, live: online parties tagged, a quoted wait per party, notify / seat / remove in one tap. */
export function WaitlistPage() {
  const [queue, error, reload] = useLoad(async () => {
    const [waiting, notified] = await Promise.all([getAll('/v1/waitlist', { query: { status: 'waiting' } }), getAll('/v1/waitlist', { query: { status: 'notified' } })]);
    return [...notified, ...waiting].sort((a, b) => a.created - b.created);
  });
  const [perParty] = useLoad(async () => (await GET('/v1/settings')).waitlist.default_wait_minutes_per_party);
  const [adding, setAdding] = useState(false);
  const [seating, setSeating] = useState<WaitlistEntry | null>(null);
  const [act, busy, actError] = useAction();
  useEffect(() => live.listen(['waitlist'], () => void reload(), () => void reload()), []);
  const writable = can('waitlist:write');
  const run = (fn: () => Promise<unknown>) => act(async () => (await fn(), await reload()));

  let ahead = 0;
  return (
    <>
      <PageHeader title={t('waitlist.title')}>
        {writable ? (
          <Button variant="primary" onClick={() => setAdding(true)}>
            {t('waitlist.addWalkIn')}
          </Button>
        ) : null}
      </PageHeader>
      <ErrorNote error={error ?? actError} />
      {!queue ? (
        <Loading />
      ) : queue.length === 0 ? (
        <Empty>{t('waitlist.empty')}</Empty>
      ) : (
        <ol class="queue">
          {queue.map((e) => {
            const quote = e.status === 'waiting' ? (ahead++ + 1) * (perParty ?? 10) : null;
            return (
              <li key={e.id} class="queue-row">
                <div class="item-main">
                  <strong>
                    {e.guest_name} · {t('reservations.party', { n: e.party_size })}
                  </strong>
                  <span class="muted">
                    {t('waitlist.waitingFor', { n: minutesSince(e.created) ?? 0 })}
                    {quote !== null ? ` · ${t('waitlist.quoted', { n: quote })}` : ''}
                    {e.phone ? ` · ${e.phone}` : ''}
                  </span>
                  <span class="booking-tags">
                    {e.source === 'online' ? <Badge tone="info">{t('waitlist.online')}</Badge> : <Badge>{t('waitlist.walkIn')}</Badge>}
                    {e.status === 'notified' ? <Badge tone="warn">{t('waitlist.notified')}</Badge> : null}
                  </span>
                </div>
                {writable ? (
                  <div class="item-actions">
                    {e.status === 'waiting' ? (
                      <Button disabled={busy} onClick={() => run(() => POST('/v1/waitlist/{id}/notify', { path: { id: e.id } }))} aria-label={`${t('waitlist.notify')}: ${e.guest_name}`}>
                        {t('waitlist.notify')}
                      </Button>
                    ) : null}
                    <Button variant="primary" disabled={busy} onClick={() => setSeating(e)} aria-label={`${t('waitlist.seat')}: ${e.guest_name}`}>
                      {t('waitlist.seat')}
                    </Button>
                    <Button variant="quiet" disabled={busy} onClick={() => run(() => DELETE('/v1/waitlist/{id}', { path: { id: e.id } }))} aria-label={`${t('common.remove')}: ${e.guest_name}`}>
                      {t('common.remove')}
                    </Button>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      {adding ? <WalkInDialog onClose={() => setAdding(false)} onSaved={reload} /> : null}
      {seating ? <SeatDialog entry={seating} onClose={() => setSeating(null)} onSaved={reload} /> : null}
    </>
  );
}

function WalkInDialog({ onClose, onSaved }: { onClose: () => void; onSaved: () => Promise<void> }) {
  const [name, setName] = useState('');
  const [size, setSize] = useState('2');
  const [phone, setPhone] = useState('');
  const save = async () => {
    await POST('/v1/waitlist', { body: { guest_name: name, party_size: Number(size), phone: phone || null } });
    await onSaved();
    onClose();
  };
  return (
    <FormDialog title={t('waitlist.addWalkIn')} onClose={onClose} onSubmit={save} submitLabel={t('waitlist.add')}>
      <Field label={t('reservations.guest')} name="guest_name" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <div class="row">
        <Field label={t('reservations.partySize')} name="party_size" type="number" min={1} required value={size} onInput={(e) => setSize((e.target as HTMLInputElement).value)} />
        <Field label={t('reservations.phone')} name="phone" type="tel" value={phone} onInput={(e) => setPhone((e.target as HTMLInputElement).value)} />
      </div>
    </FormDialog>
  );
}

/**
 * Seat a party: the free tables that fit it now (not booked for the next sitting, no party
 * seated, no open check), smallest first; or no table (at the bar). The server checks again.
 */
function SeatDialog({ entry, onClose, onSaved }: { entry: WaitlistEntry; onClose: () => void; onSaved: () => Promise<void> }) {
  const [free] = useLoad(async () => {
    const [tables, bookings, orders, settings] = await Promise.all([
      getAll('/v1/tables'),
      getAll('/v1/reservations', { query: { date: todayAtRestaurant() } }),
      Promise.all(['draft', ...OPEN_STATUSES].map((status) => getAll('/v1/orders', { query: { status } }))),
      GET('/v1/settings'),
    ]);
    const busy = new Set([...orders.flat().map((o) => o.table), ...bookings.filter((r) => r.status === 'seated').map((r) => refId(r.table))].filter((x): x is string => !!x));
    const now = Math.floor(Date.now() / 1000);
    return freeTables(tables, bookings, { party: entry.party_size, start: now, end: now + SITTING_MINUTES * 60, bufferSec: settings.reservation_buffer_minutes * 60, busy });
  });
  const [act, busy, error] = useAction();
  const seat = async (table: string | null) => {
    if (await act(() => POST('/v1/waitlist/{id}/seat', { path: { id: entry.id }, body: table ? { table } : {} }))) {
      await onSaved();
      onClose();
    }
  };
  return (
    // kit: a Dialog, not a FormDialog: a pick of a table (tiles), no form
    <Dialog title={t('waitlist.seatTitle', { name: entry.guest_name, n: entry.party_size })} open onClose={onClose}>
      {!free ? (
        <Loading />
      ) : free.length === 0 ? (
        <p>{t('waitlist.noFreeTable')}</p>
      ) : (
        <>
          <p>{t('waitlist.pickTable')}</p>
          <TileGrid
            items={free}
            label={t('waitlist.pickTable')}
            keyOf={(tb) => tb.id}
            min={120}
            render={(tb) => (
              <>
                <strong>{t('floor.tableN', { n: tb.number })}</strong> <span class="muted">{t('floor.seats', { n: tb.capacity })}</span>
              </>
            )}
            onPick={(tb) => void (busy || seat(tb.id))}
          />
        </>
      )}
      <ErrorNote error={error} />
      <div class="dialog-actions">
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button disabled={busy} onClick={() => seat(null)}>
          {t('waitlist.seatNoTable')}
        </Button>
      </div>
    </Dialog>
  );
}
