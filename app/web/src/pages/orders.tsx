import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { GET, getAll } from '../lib/client.ts';
import { minutesSince, money, todayAtRestaurant, when } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { navigate, queryParam } from '../lib/router.ts';
import { OPEN_STATUSES, ORDER_TYPES, type Order, type OrderStatus, type Table } from '../lib/types.ts';
import { Badge, Button, Empty, ErrorNote, Field, PageHeader, SelectField, Tabs, useLoad } from '../ui/kit.tsx';
import { DataTable } from '../ui/data-table.tsx';

export const statusTone = (s: string) =>
  (({ placed: 'info', preparing: 'warn', ready: 'good', served: 'neutral', completed: 'neutral', cancelled: 'bad' }) as const)[s as 'placed'] ?? 'neutral';

export const tableLabel = (o: Order, tables: Map<string, Table>) => {
  const id = typeof o.table === 'string' ? o.table : o.table?.id;
  return id ? String(tables.get(id)?.number ?? "?") : null;
};

export function OrdersPage() {
  const view = queryParam('view') === 'history' ? 'history' : 'board';
  return (
    <>
      <PageHeader title={t('orders.title')} />
      <Tabs
        label={t('orders.title')}
        current={view}
        tabs={[
          { id: 'board', label: t('orders.board') },
          { id: 'history', label: t('orders.history') },
        ]}
        onChange={(id) => navigate(id === 'history' ? '/app/orders?view=history' : '/app/orders', true)}
      />
      {view === 'board' ? <Board /> : <History />}
    </>
  );
}

const loadTables = async () => new Map((await getAll('/v1/tables', { query: { is_active: false } }).catch(() => [] as Table[])).map((x) => [x.id, x]));

/**
 * Open orders, live. The board follows the `orders` topic from /realtime: an order message
 * replaces the order by id (or drops it once it is no longer open), so a new order shows
 * without a reload. Messages arriving during the first load are kept and applied after it.
 */
function Board() {
  const [orders, setOrders] = useState<Map<string, Order> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [table, setTable] = useState('');
  const [tables] = useLoad(loadTables);
  const [, tick] = useState(0);
  const pending = useRef<Order[] | null>(null);

  const apply = (list: Order[], into: Map<string, Order>) => {
    for (const o of list) {
      if (!o.livemode) continue;
      const had = into.get(o.id);
      if (had && had.updated > o.updated) continue;
      if (OPEN_STATUSES.includes(o.status)) into.set(o.id, o);
      else into.delete(o.id);
    }
  };

  const load = async () => {
    pending.current = [];
    try {
      const lists = await Promise.all(OPEN_STATUSES.map((s) => getAll('/v1/orders', { query: { status: s } }, 500)));
      const next = new Map<string, Order>();
      apply(lists.flat(), next);
      apply(pending.current ?? [], next);
      setOrders(next);
      setError(null);
    } catch (e) {
      setError(e);
    } finally {
      pending.current = null;
    }
  };

  // loads run one after another, so each one's held messages belong to it alone
  const chain = useRef<Promise<void>>(Promise.resolve());
  const loadInTurn = () => (chain.current = chain.current.then(load));

  useEffect(() => {
    // many messages in one frame make one render: 10 orders a second stay smooth
    let batch: Order[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const list = batch;
      batch = [];
      setOrders((prev) => {
        if (!prev) return prev;
        const next = new Map(prev);
        apply(list, next);
        return next;
      });
    };
    const stop = live.listen(
      ['orders'],
      (m) => {
        if (m.type !== 'order') return;
        if (pending.current) pending.current.push(m.data as Order);
        batch.push(m.data as Order);
        frame ||= requestAnimationFrame(flush);
      },
      () => void loadInTurn(),
    );
    void loadInTurn();
    const clock = window.setInterval(() => tick((n) => n + 1), 30_000);
    return () => {
      stop();
      cancelAnimationFrame(frame);
      clearInterval(clock);
    };
  }, []);

  const tableMap = tables ?? new Map<string, Table>();
  const shown = useMemo(() => {
    const list = [...(orders?.values() ?? [])];
    return list
      .filter((o) => (!type || o.type === type) && (!status || o.status === status) && (!table || tableLabel(o, tableMap) === table))
      .sort((a, b) => (a.placed_at ?? a.created) - (b.placed_at ?? b.created));
  }, [orders, type, status, table, tables]);

  return (
    <section aria-label={t('orders.board')}>
      <div class="filters">
        <SelectField
          label={t('orders.type')}
          value={type}
          onChange={setType}
          options={[{ value: '', label: t('common.all') }, ...ORDER_TYPES.map((x) => ({ value: x, label: t(`orderType.${x}` as Key) }))]}
        />
        <SelectField
          label={t('orders.status')}
          value={status}
          onChange={setStatus}
          options={[{ value: '', label: t('common.all') }, ...OPEN_STATUSES.map((x) => ({ value: x, label: t(`orderStatus.${x}` as Key) }))]}
        />
        <SelectField
          label={t('orders.table')}
          value={table}
          onChange={setTable}
          options={[{ value: '', label: t('common.all') }, ...[...tableMap.values()].map((x) => ({ value: String(x.number), label: String(x.number) }))]}
        />
        <p class="board-count" aria-live="polite">
          {orders ? t('orders.openCount', { n: shown.length }) : ''}
        </p>
      </div>
      <ErrorNote error={error} />
      {orders === null ? null : shown.length === 0 ? (
        <Empty>{t('orders.noneOpen')}</Empty>
      ) : (
        <ul class="board" data-testid="orders-board">
          {shown.map((o) => (
            <OrderCard key={o.id} order={o} table={tableLabel(o, tableMap)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function OrderCard({ order: o, table }: { order: Order; table: string | null }) {
  const mins = minutesSince(o.placed_at ?? o.created);
  const lines = o.items.reduce((n, l) => n + l.quantity, 0);
  return (
    <li class={`order-card status-${o.status}`} data-order={o.id}>
      <a href={`/app/orders/${o.id}`} class="order-card-link">
        <span class="order-no">#{o.order_number}</span>
        <Badge tone={statusTone(o.status)}>{t(`orderStatus.${o.status}` as Key)}</Badge>
        <span class="order-meta">
          {t(`orderType.${o.type}` as Key)}
          {table ? ` · ${t('orders.tableN', { n: table })}` : ''}
          {o.customer.name ? ` · ${o.customer.name}` : ''}
        </span>
        <span class="order-meta">
          {t('orders.items', { n: lines })} · {money(o.total, o.currency)}
        </span>
        <span class={`order-age ${mins !== null && mins >= 20 ? 'late' : ''}`}>{mins === null ? '' : t('orders.minutes', { n: mins })}</span>
      </a>
    </li>
  );
}

/** Past orders: by number, day and customer, newest first, a page at a time. */
function History() {
  const [number, setNumber] = useState('');
  const [date, setDate] = useState(todayAtRestaurant());
  const [customer, setCustomer] = useState('');
  const [status, setStatus] = useState('');
  const [rows, setRows] = useState<Order[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const query = (date: string) => {
    const q: Record<string, string | number | undefined> = { limit: 50, order_number: number || undefined, customer: customer || undefined, status: status || undefined };
    if (date) {
      // the restaurant's day, wherever this browser is: a day is at most 26 h wide around DST
      const start = Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000) - 14 * 3600;
      q['created.gte'] = Math.max(0, start);
      q['created.lte'] = start + 14 * 3600 + 24 * 3600 + 14 * 3600;
    }
    return q;
  };

  const search = async (e?: Event, after?: string, day = date): Promise<Order[]> => {
    e?.preventDefault();
    try {
      const page = await GET('/v1/orders', { query: { ...query(day), starting_after: after } });
      const list = page.data.filter((o) => !day || todayAtRestaurantOf(o.created) === day);
      setRows(after ? [...(rows ?? []), ...list] : list);
      setCursor(page.has_more ? page.next_cursor : null);
      setError(null);
      return list;
    } catch (err) {
      setError(err);
      return [];
    }
  };
  useEffect(() => {
    void (async () => {
      // nothing yet today (the morning after, a demo venue): open on the last day that has orders
      if ((await search()).length > 0) return;
      const newest = (await GET('/v1/orders', { query: { limit: 1 } }).catch(() => ({ data: [] as Order[] }))).data[0];
      const day = newest ? todayAtRestaurantOf(newest.created) : null;
      if (day && day !== date) {
        setDate(day);
        await search(undefined, undefined, day);
      }
    })();
  }, []);

  return (
    <section aria-label={t('orders.history')}>
      <form class="filters" onSubmit={(e) => search(e)} role="search">
        <Field label={t('orders.number')} value={number} onInput={(e) => setNumber((e.target as HTMLInputElement).value)} inputMode="numeric" />
        <Field label={t('orders.date')} type="date" value={date} onInput={(e) => setDate((e.target as HTMLInputElement).value)} />
        <Field label={t('orders.customer')} value={customer} onInput={(e) => setCustomer((e.target as HTMLInputElement).value)} />
        <SelectField
          label={t('orders.status')}
          value={status}
          onChange={setStatus}
          options={[{ value: '', label: t('common.all') }, ...(['placed', 'preparing', 'ready', 'served', 'completed', 'cancelled'] as OrderStatus[]).map((x) => ({ value: x, label: t(`orderStatus.${x}` as Key) }))]}
        />
        <Button type="submit" variant="primary">
          {t('common.search')}
        </Button>
      </form>
      <ErrorNote error={error} />
      {rows === null ? null : (
        <DataTable
          rows={rows}
          rowKey={(o) => o.id}
          empty={t('orders.noneFound')}
          columns={[
            { label: t('orders.number'), cell: (o) => <a href={`/app/orders/${o.id}`}>#{o.order_number}</a> },
            { label: t('orders.time'), cell: (o) => when(o.created) },
            { label: t('orders.type'), cell: (o) => t(`orderType.${o.type}` as Key) },
            { label: t('orders.customer'), cell: (o) => o.customer.name ?? '—' },
            { label: t('orders.status'), cell: (o) => <Badge tone={statusTone(o.status)}>{t(`orderStatus.${o.status}` as Key)}</Badge> },
            { label: t('orders.total'), num: true, cell: (o) => money(o.total, o.currency) },
          ]}
        />
      )}
      {cursor ? (
        <Button onClick={() => search(undefined, cursor)}>{t('common.more')}</Button>
      ) : null}
    </section>
  );
}

/** The restaurant's calendar date of a moment. */
function todayAtRestaurantOf(unixSeconds: number): string {
  return todayAtRestaurant((unixSeconds * 1000 - Date.now()) / 86_400_000);
}
