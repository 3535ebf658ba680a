import { useEffect, useState } from 'preact/hooks';
import { getAll } from '../lib/client.ts';
import { money, todayAtRestaurant, when } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { live, type LiveMessage } from '../lib/live.ts';
import { liveLoads } from '../lib/live-loads.ts';
import { session } from '../lib/session.ts';
import { OPEN_STATUSES } from '../lib/types.ts';
import { FloorPlan, type PlanTable, type TableState } from '../ui/floor-plan.tsx';
import { Dialog } from '../ui/kit.tsx';
import { nowSeconds } from './board.ts';
import { ScreenBar } from './frame.tsx';

interface Table extends PlanTable {
  status: string;
}
interface Reservation {
  id: string;
  table: string | null;
  status: string;
  starts_at: number;
  party_size: number;
  guest: { name: string };
}
interface Order {
  id: string;
  order_number: string;
  status: string;
  table: string | null;
  total: number;
  currency: string;
  items: { index: number; name: string; quantity: number; status: string }[];
}

export type { TableState };
const OPEN: readonly string[] = OPEN_STATUSES;
const SOON_SECONDS = 60 * 60;

/** A table's state on the plan, from its open order, today's bookings and its own floor status. */
export function tableState(table: Table, order: Order | undefined, bookings: Reservation[], now: number): TableState {
  if (order) return order.status === 'served' ? 'bill' : 'order';
  if (bookings.some((r) => r.status === 'seated') || ['occupied', 'seated'].includes(table.status)) return 'seated';
  if (bookings.some((r) => ['pending', 'confirmed'].includes(r.status) && r.starts_at - now <= SOON_SECONDS && now - r.starts_at <= 15 * 60)) return 'soon';
  return 'free';
}

/** An order message applied to the orders by id: the order as it is now, or gone. */
function withMessage(orders: Map<string, Order>, m: LiveMessage): Map<string, Order> {
  if (m.type === 'order.deleted') orders.delete(m.data.id);
  else orders.set(m.data.id, m.data as Order);
  return orders;
}

/**
 * The floor for a manager's tablet: tables as a grid coloured by state, the next booking and
 * the open order's total; tap a table for its order. Signed in with the back office's session
 * (tables and bookings are staff data a kitchen key does not read).
 */
export function FloorScreen() {
  const [tables, setTables] = useState<Table[]>([]);
  const [bookings, setBookings] = useState<Reservation[]>([]);
  const [orders, setOrders] = useState<Map<string, Order>>(new Map());
  const [picked, setPicked] = useState<Table | null>(null);

  useEffect(() => {
    // each kind loaded twice at least (at once, and when the feed follows): a slow answer must
    // not replace what a later one or a message already showed (lib/live-loads.ts)
    const orderLoads = liveLoads<LiveMessage>();
    const bookingLoads = liveLoads();
    const tableLoads = liveLoads();
    const loadOrders = () =>
      orderLoads.load(
        () => Promise.all(OPEN.map((status) => getAll('/v1/orders', { query: { status } }))),
        (lists, heard) => setOrders(heard.reduce(withMessage, new Map(lists.flat().map((o) => [o.id, o])))),
      );
    // today's, and tomorrow's within the hour: at 23:40 a table booked for 00:10 is reserved soon
    const loadBookings = () =>
      bookingLoads.load(
        () => Promise.all([todayAtRestaurant(), todayAtRestaurant(1)].map((date) => getAll('/v1/reservations', { query: { date } }))),
        ([today, tomorrow]) => {
          const horizon = Date.now() / 1000 + SOON_SECONDS;
          setBookings([...today, ...tomorrow.filter((r) => r.starts_at <= horizon)]);
        },
      );
    const loadAll = () => void Promise.all([tableLoads.load(() => getAll('/v1/tables'), setTables), loadOrders(), loadBookings()]).catch(() => {});
    const stop = live.listen(
      ['orders', 'reservations'],
      (m) => {
        // orders come as the API shows them; a booking message is the stored row, so bookings are re-read
        if (m.type === 'order' || m.type === 'order.deleted') {
          orderLoads.heard(m);
          setOrders((prev) => withMessage(new Map(prev), m));
        } else if (m.type.startsWith('reservation')) void loadBookings().catch(() => {});
      },
      loadAll,
    );
    loadAll();
    return stop;
  }, []);

  const now = nowSeconds.value;
  const openAt = (id: string) => [...orders.values()].filter((o) => o.table === id && OPEN.includes(o.status)).sort((a, b) => a.order_number.localeCompare(b.order_number))[0];
  const cur = session.value?.restaurant.currency.toUpperCase();
  const pickedOrder = picked ? openAt(picked.id) : undefined;
  return (
    <div class="kds">
      <ScreenBar title={t('floor.title')} />
      <ul class="floor-legend" aria-label={t('floor.title')}>
        {(['free', 'soon', 'seated', 'order', 'bill'] as const).map((s) => (
          <li key={s} class={`floor-${s}`}>
            {t(`floor.state.${s}`)}
          </li>
        ))}
      </ul>
      <main class="floor-main">
        {/* the plan the back office arranges and the service tablets use */}
        <FloorPlan
          tables={tables}
          stateOf={(tb) => tableState(tb, openAt(tb.id), bookings.filter((r) => r.table === tb.id), now)}
          stateLabel={(s) => t(`floor.state.${s}`)}
          detailOf={(tb) => {
            const order = openAt(tb.id);
            const next = bookings
              .filter((r) => r.table === tb.id && ['pending', 'confirmed'].includes(r.status) && r.starts_at >= now - 15 * 60)
              .sort((a, b) => a.starts_at - b.starts_at)[0];
            return (
              <>
                <span class="floor-seats">{t('floor.seats', { n: tb.capacity })}</span>
                {order ? <span class="floor-total">{money(order.total, cur)}</span> : null}
                {next ? <span class="floor-next">{t('floor.next', { time: when(next.starts_at, 'time'), name: next.guest.name, n: next.party_size })}</span> : null}
              </>
            );
          }}
          onPick={setPicked}
        />
      </main>
      <Dialog title={picked ? t('qr.table', { n: picked.number }) : ''} open={!!picked} onClose={() => setPicked(null)}>
        {pickedOrder ? (
          <>
            <p>
              #{pickedOrder.order_number} · {t(`qr.status.${pickedOrder.status}` as 'qr.status.placed')} · {money(pickedOrder.total, cur)}
            </p>
            <ul class="plain-list">
              {pickedOrder.items.map((l) => (
                <li key={l.index}>
                  {l.quantity}× {l.name} · {t(`kds.line.${l.status}` as 'kds.line.pending')}
                </li>
              ))}
            </ul>
            <a class="btn btn-primary" href={`/app/orders/${pickedOrder.id}`}>
              {t('floor.openOrder')}
            </a>
          </>
        ) : (
          <p>{t('floor.noOrder')}</p>
        )}
      </Dialog>
    </div>
  );
}
