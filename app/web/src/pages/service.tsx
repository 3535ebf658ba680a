import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { GET, POST, getAll } from '../lib/client.ts';
import { money, todayAtRestaurant } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { useFormFor } from '../lib/form-for.ts';
import { live } from '../lib/live.ts';
import { liveLoads } from '../lib/live-loads.ts';
import { holdFirstDraw, loadedPages } from '../lib/loaded-pages.ts';
import { loadSession, mayBeSignedIn, session } from '../lib/session.ts';
import { onQueueSent, startOutbox, submit, waitingFor } from '../lib/outbox.ts';
import { cashWaiting, firesWaiting, NeedsHome, offline, OfflineCash, QueueNews, sendRound, WaitingAtTable, WaitingCount } from './service-queue.tsx';
import { loginFor } from './login.tsx';
import { backOfficeHome, maySeeBackOffice, PinPad, pinTabletHint, sendAround } from './service-parts.tsx';
import { OPEN_STATUSES } from '../lib/types.ts';
import { FloorPlan, type PlanTable, type TableState } from '../ui/floor-plan.tsx';
import { Button, Dialog, Field } from '../ui/kit.tsx';
import { TileGrid } from '../ui/tile-grid.tsx';
import { DiscountSheet, type DiscountBody, type DiscountTarget } from './service-discount.tsx';
import { CheckBySeat, CheckTotals, CoversPrompt, MoveToSeat, PayPane, SeatChips, seatCount, type BillLine, type BillOrder } from './service-bill.tsx';
import type { Order as ApiOrder } from '../lib/types.ts';

interface Modifier { name: string; price_adjustment: number; is_available: boolean }
interface Group { id: string; name: string; required: boolean; min_selections: number; max_selections: number; modifiers: Modifier[] }
interface Item { id: string; name: string; price: number; category: string; is_active: boolean; is_available: boolean; modifier_groups: string[] }
interface Category { id: string; name: string }
type Line = BillLine;
interface Order extends BillOrder { order_number: string; table: string | null; status: string; check_discount_amount: number; check_discount_base: number; discount_reason: string | null; created: number }
/** a line rung in but not sent yet */
interface Draft { key: number; item: Item; quantity: number; modifiers: { group: string; name: string }[]; notes: string; seat: number; course: number }

const OPEN: readonly string[] = OPEN_STATUSES;
const cur = () => session.value?.restaurant.currency ?? 'eur';

/** PIN pad for a trusted tablet: tap your name, type your PIN. */
export function PinSignIn() {
  const [staff, setStaff] = useState<{ id: string; name: string }[] | null>(null);
  const [venue, setVenue] = useState<string | null>(null);
  // a tablet no manager has trusted is not asked (its answer would be a 401 in the console)
  const [untrusted, setUntrusted] = useState(() => !pinTabletHint());
  const [who, setWho] = useState<{ id: string; name: string } | null>(null);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (untrusted) return;
    GET('/v1/auth/pin_staff').then((r) => (setStaff(r.data), setVenue(r.restaurant?.name ?? null)), () => setUntrusted(true));
  }, []);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await POST('/v1/auth/pin', { body: { staff: who!.id, pin } });
      await loadSession();
    } catch {
      setError(t('service.pin.wrong'));
      setPin('');
    }
  };
  return (
    <main class="service pin-page" id="main">
      {venue ? <p class="pin-venue">{venue}</p> : null}
      <h1>{t('service.pin.title')}</h1>
      {untrusted ? (
        <p>
          {t('service.pin.untrusted')} <a href={loginFor('/app/service')}>{t('service.pin.managerSignIn')}</a>
        </p>
      ) : null}
      {staff ? <TileGrid items={staff} label={t('service.pin.title')} keyOf={(s) => s.id} render={(s) => s.name} min={180} onPick={(s) => (setWho(s), setError(null), setPin(''))} /> : null}
      {/* kit: a Dialog, not a FormDialog: the PIN pad before anyone is signed in (digit keys, one Sign in, a wrong PIN cleared) */}
      <Dialog title={who ? t('service.pin.enter', { name: who.name }) : ''} open={!!who} onClose={() => setWho(null)}>
        <form onSubmit={submit} class="pin-form">
          <Field label="PIN" type="password" inputMode="numeric" autoComplete="off" maxLength={6} value={pin} error={error} onInput={(e) => setPin((e.target as HTMLInputElement).value.replace(/\D/g, ''))} />
          <PinPad value={pin} onChange={setPin} />
          <Button variant="primary" class="wide" type="submit" disabled={pin.length < 4}>{t('service.pin.signIn')}</Button>
        </form>
      </Dialog>
    </main>
  );
}

const loadTables = () => getAll('/v1/tables');
// every open check in one request (the list takes several statuses); its URL is the one the
// server preloads with the page (SERVICE_FIRST in server/http/web-app.ts)
const loadOpen = () => getAll('/v1/orders', { query: { status: OPEN.join(',') } });

/**
 * A tablet opening /app/service asks for the floor while the app still asks who is signed in
 * (service.html loads this module with the app's), and the app's first real draw waits for
 * both answers: the floor is drawn once, with its tables and checks. The server has already
 * started these requests with the page (Link preloads, see server/http/web-app.ts), so these
 * calls take those answers. Only when a session cookie is there; taken by the page's first
 * mount, later ones ask afresh.
 */
let early: { tables: Promise<PlanTable[]>; orders: Promise<Order[]>; got: { tables?: PlanTable[]; orders?: Order[] } } | null = null;
if (location.pathname.startsWith('/app/service') && mayBeSignedIn()) {
  const got: { tables?: PlanTable[]; orders?: Order[] } = {};
  const tables = loadTables();
  const orders = loadOpen();
  tables.then((x) => (got.tables = x), () => {});
  orders.then((x) => (got.orders = x), () => {});
  early = { tables, orders, got };
  // the app's first draw waits for both: the floor is drawn once, with its checks
  holdFirstDraw(Promise.allSettled([tables, orders]));
}
const takeEarly = () => {
  const e = early;
  early = null;
  return e;
};

// drawn at once by the app when this module came with its first load (service.html)
loadedPages.set('ServicePage', ServicePage).set('PinSignIn', PinSignIn);

/** Order entry at the table: the floor plan, then a table's check with the menu beside it. */
export function ServicePage() {
  const [first] = useState(takeEarly);
  const [tables, setTables] = useState<PlanTable[]>(() => first?.got.tables ?? []);
  const [orders, setOrders] = useState<Map<string, Order>>(() => new Map((first?.got.orders ?? []).map((o) => [o.id, o])));
  const [table, setTable] = useState<PlanTable | null>(null);
  const [trusted, setTrusted] = useState(false);
  // tables a party sits at without a check yet (seated from a booking or the waitlist)
  const [seated, setSeated] = useState<Set<string>>(new Set());
  const loadSeated = async () => {
    const sittings = await getAll('/v1/reservations', { query: { date: todayAtRestaurant(), status: 'seated' } });
    setSeated(new Set(sittings.map((r) => r.table).filter((x): x is string => !!x)));
  };
  // the list the first draw showed: not set again when it comes back (a second draw of the floor)
  const shown = useRef(first?.got.orders);
  // the first load and the one when the feed follows overlap: a slow answer must not replace a
  // check a later one, a message or this tablet's own write already showed (lib/live-loads.ts)
  const [orderLoads] = useState(() => liveLoads<Order>());
  const put = (o: Order) => {
    orderLoads.heard(o);
    setOrders((prev) => new Map(prev).set(o.id, o));
  };
  /** the open checks (and, the first time, the tables with them: the floor is drawn once, with both in) */
  const load = async (open: Promise<Order[]> = loadOpen(), floor?: Promise<PlanTable[]>) => {
    const [, all] = await Promise.all([
      orderLoads.load(
        () => open,
        (list, heard) => {
          if (list !== shown.current || heard.length) setOrders(new Map([...list, ...heard].map((o) => [o.id, o])));
        },
      ),
      floor,
    ]);
    if (all) setTables(all);
    shown.current = undefined;
    // after the floor is painted (the next frame, not just the next task: a task could come
    // first and hold the paint): the restaurant's date needs a time-zone format, whose first
    // build (the locale data) costs a cheap tablet more than drawing the floor. A hidden page
    // draws no frames, hence the timer beside it.
    await new Promise((r) => {
      requestAnimationFrame(() => setTimeout(r, 0));
      setTimeout(r, 500);
    });
    await loadSeated();
  };
  useEffect(() => {
    void load(first?.orders.catch(loadOpen), first?.tables.catch(loadTables) ?? loadTables());
    return live.listen(['orders', 'reservations'], (m) => {
      if (m.type === 'order') put(m.data as Order);
      else if (m.type.startsWith('reservation')) void loadSeated().catch(() => {});
    }, () => void load());
  }, []);
  // writes made while neither home answered go out from here, also those an earlier page left (a reload)
  useEffect(() => {
    startOutbox();
    return onQueueSent((e, answer) => (e.write.kind === 'payment' ? void load() : put(answer as Order)));
  }, []);
  const openAt = (id: string) => [...orders.values()].find((o) => o.table === id && OPEN.includes(o.status));
  const now = Date.now() / 1000;
  const stateOf = (tb: PlanTable): TableState => {
    const o = openAt(tb.id);
    // a check opened on this tablet while offline is taken as soon as a home answers
    return o ? (o.status === 'served' ? 'bill' : 'order') : waitingFor(tb.id).length ? 'order' : seated.has(tb.id) ? 'seated' : 'free';
  };
  const detailOf = (tb: PlanTable) => {
    const o = openAt(tb.id);
    if (!o) return waitingFor(tb.id).length ? <span class="plan-age">{t('service.queue.mark')}</span> : null;
    // total and age on one line; a round table, narrower at the top and bottom, stacks them
    return (
      <>
        <span class="plan-total">{money(o.total, o.currency)}</span>
        <span class="plan-sep"> · </span>
        <span class="plan-age">{t('service.age', { n: Math.max(0, Math.round((now - o.created) / 60)) })}</span>
      </>
    );
  };
  const lock = async () => {
    // the feed first, or its "not signed in" would take the tablet to the password page
    live.stop();
    await POST('/v1/auth/logout');
    await loadSession();
  };
  // trusting a tablet takes a manager's or owner's password sign-in (a PIN session does service work only)
  const manager = session.value?.scopes.includes('settings:write') ?? false;
  // the tapped table (or Floor) leaves the page with the focus in it: the heading of what came takes it
  const heading = useRef<HTMLHeadingElement>(null);
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) heading.current?.focus();
    opened.current = true;
  }, [table?.id]);
  return (
    <div class="service">
      <div class="service-bar">
        <h1 ref={heading} tabIndex={-1}>{table ? t('service.table', { n: table.number }) : t('service.title')}</h1>
        <div class="chips">
          {table ? <Button onClick={() => setTable(null)}>{t('service.floor')}</Button> : null}
          {manager && !trusted && !pinTabletHint() ? (
            <Button onClick={() => POST('/v1/auth/pin_device').then(() => setTrusted(true))}>{t('service.trust')}</Button>
          ) : null}
          {maySeeBackOffice() ? <a class="btn" href={backOfficeHome()}>{t('service.backOffice')}</a> : null}
          <WaitingCount />
          <span>{session.value?.staff.name}</span>
          <Button onClick={lock}>{t('service.lock')}</Button>
        </div>
      </div>
      {trusted ? <p role="status">{t('service.trusted')}</p> : null}
      <QueueNews />
      {table ? (
        // one Check per table: a party's size, added seats and lines not yet sent stay with their table
        <Check key={table.id} table={table} tables={tables} order={openAt(table.id)} openAt={openAt} onChanged={(o) => (put(o), o.table !== table.id && setTable(tables.find((x) => x.id === o.table) ?? null))} />
      ) : (
        <FloorPlan tables={tables} stateOf={stateOf} detailOf={detailOf} onPick={setTable} />
      )}
    </div>
  );
}

interface CheckProps {
  table: PlanTable;
  tables: PlanTable[];
  order: Order | undefined;
  openAt: (table: string) => Order | undefined;
  onChanged: (o: Order) => void;
}

/** A table's check: the menu (or the pay pane) beside the lines by seat, the new lines, the totals and the moves. */
function Check(props: CheckProps) {
  const c = useCheckData(props);
  const { table, order, onChanged } = props;
  return (
    <div class="service-check">
      {c.paying && order && !c.away ? (
        <PayPane order={order as unknown as ApiOrder} onChanged={(o) => onChanged(o as unknown as Order)} onBack={() => c.setPaying(false)} />
      ) : c.settled ? (
        <p class="check-settled" role="status">{t('service.paidInFull', { n: table.number })}</p>
      ) : (
        <MenuPanel items={c.items} cats={c.cats} onPick={(i) => c.setPicking({ key: Date.now(), item: i, quantity: 1, modifiers: [], notes: '', seat: c.seat, course: c.course })} />
      )}
      <section aria-label={t('service.check')}>
        <CheckChoices c={c} table={table} />
        <h2 ref={c.checkHeading} tabIndex={-1}>{t('service.check')}</h2>
        {!order && c.drafts.length === 0 ? <p>{t('service.empty')}</p> : null}
        {order ? (
          <CheckBySeat
            order={order}
            onDropOnSeat={c.moveLine}
            actions={(l) => (
              <>
                <Button aria-label={t('service.moveLabel', { name: l.name })} disabled={c.away} onClick={() => c.setSeatFor(l)}>{t('service.moveToSeat')}</Button>
                <Button
                  aria-label={t('service.discount.lineLabel', { name: l.name })}
                  disabled={c.away}
                  onClick={() => c.setDiscounting({ order: order.id, line: { index: l.index, name: l.name }, base: l.subtotal, current: l.discount_amount, currency: order.currency })}
                >
                  {t('service.discount.button')}
                </Button>
                <Button variant="danger" disabled={c.away} onClick={() => c.setVoiding(l)}>{t('service.void')}</Button>
              </>
            )}
          />
        ) : null}
        {c.drafts.length ? <NewLines c={c} /> : null}
        {order && order.check_discount_amount > 0 ? (
          <p class="check-discount" data-check-discount={order.check_discount_amount}>
            {t('service.discount.onCheck', { amount: money(order.check_discount_amount, order.currency) })} · {order.discount_reason}
          </p>
        ) : null}
        <WaitingAtTable table={table.id} />
        {/* what the table owes and how it pays, before the rarer moves below */}
        {order ? <CheckTotals order={order} /> : null}
        {order ? (
          <div class="chips check-pay">
            <Button variant="primary" class="big" disabled={order.amount_due <= 0 || cashWaiting(table.id)} onClick={() => c.setPaying(true)}>{t('service.pay')}</Button>
            <Button class="big" disabled={order.amount_due <= 0 || c.away} onClick={() => c.setPaying(true)}>{t('service.split')}</Button>
            <Button class="big" disabled={c.away} onClick={c.printBill}>{t('service.printBill')}</Button>
          </div>
        ) : null}
        <NeedsHome />
        {c.note ? <p role="status">{c.note}</p> : null}
        <CheckMoves c={c} table={table} order={order} />
        {c.error ? <p class="error-text" role="alert">{c.error}</p> : null}
      </section>
      <CheckSheets c={c} {...props} />
    </div>
  );
}

/** The check's state: the menu (kept live), the lines not yet sent, the open sheets, and the writes. */
function useCheckData({ table, order, onChanged }: CheckProps) {
  const [items, setItems] = useState<Item[]>([]);
  const [cats, setCats] = useState<Category[]>([]);
  const [groups, setGroups] = useState<Map<string, Group>>(new Map());
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [seat, setSeat] = useState(1);
  const [course, setCourse] = useState(1);
  const [hold, setHold] = useState<Set<number>>(new Set());
  const [picking, setPicking] = useState<Draft | null>(null);
  const [voiding, setVoiding] = useState<Line | null>(null);
  const [moving, setMoving] = useState(false);
  const [merging, setMerging] = useState(false);
  const [discounting, setDiscounting] = useState<DiscountTarget | null>(null);
  const [seatFor, setSeatFor] = useState<Line | null>(null);
  // the party's size said before the check exists: it goes with the first Send
  const [covers, setCovers] = useState<number | null>(null);
  const [askCovers, setAskCovers] = useState(!order);
  const [addedSeats, setAddedSeats] = useState(0);
  const [paying, setPaying] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // drafts the kitchen refused on Send (the dish was 86'd meanwhile): key → the API's reason
  const [refused, setRefused] = useState<Map<number, string>>(new Map());
  const checkHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    void Promise.all([getAll('/v1/menu_items'), getAll('/v1/menu_categories'), getAll('/v1/modifier_groups')]).then(([i, c, g]) => {
      setItems(i.filter((x) => x.is_active));
      setCats(c);
      setGroups(new Map(g.map((x) => [x.id, x])));
    });
    // a dish 86'd (or back) on another device shows on this grid at once
    return live.listen(['menu'], (m) => {
      if (m.type !== 'menu_item') return;
      const next = m.data as Item;
      setItems((list) => (next.is_active ? (list.some((x) => x.id === next.id) ? list.map((x) => (x.id === next.id ? next : x)) : [...list, next]) : list.filter((x) => x.id !== next.id)));
    }, () => {});
  }, []);
  // null: the write waits on the tablet (lib/outbox.ts), nothing changed on a server yet
  const run = async (call: () => Promise<Order | null>) => {
    try {
      setError(null);
      const o = await call();
      if (o) onChanged(o);
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : String(e));
    }
  };
  const send = () =>
    run(async () => {
      const out = drafts.filter((d) => !refused.has(d.key));
      // to the check, or opening it placed with the round (one round trip from the tap to the kitchen); queued when no home answers
      const { order: o, refused: no } = await sendAround(out, (round) => sendRound<Order>(table, order?.id ?? null, round, hold, covers));
      // a refused line stays, with its reason, until it is removed; the rest went to the kitchen
      const kept = new Map([...refused, ...no]);
      setDrafts(drafts.filter((d) => kept.has(d.key)));
      setRefused(kept);
      if (!no.size) setHold(new Set());
      // the Send button has gone with the lines it sent: the check's heading takes the focus
      requestAnimationFrame(() => checkHeading.current?.focus());
      const reasons = [...no.values()].join(' ');
      if (!o) throw new ApiFailure(409, 'menu_item_unavailable', reasons, null);
      if (no.size) setError(t('service.sentExcept', { reasons }));
      return o === 'queued' ? null : o;
    });
  const heldCourses = [...new Set((order?.items ?? []).filter((l) => l.held && !l.voided_at).map((l) => l.course!))].filter((c) => !firesWaiting(table.id).includes(c)).sort();
  const partySize = order ? order.covers : covers;
  const seats = seatCount(table.capacity, partySize, order, addedSeats);
  const pickCovers = (n: number) => {
    setAskCovers(false);
    if (order) return run(() => POST('/v1/orders/{id}/covers', { path: { id: order.id }, body: { covers: n } }));
    setCovers(n);
  };
  const moveLine = (index: number, to: number) => run(() => POST('/v1/orders/{id}/move_items', { path: { id: order!.id }, body: { items: [index], seat: to } }));
  const printBill = () =>
    run(async () => {
      setNote(null);
      await POST('/v1/orders/{id}/receipt', { path: { id: order!.id } });
      setNote(t('service.billPrinting'));
      return order!;
    });
  // paid in full while the pay pane was open: the check closed and the table is free
  const settled = paying && !order;
  // neither home answers: what needs one is off, and says so (NeedsHome)
  const away = offline();
  return {
    items, cats, groups, drafts, setDrafts, seat, setSeat, course, setCourse, hold, setHold, picking, setPicking, voiding, setVoiding,
    moving, setMoving, merging, setMerging, discounting, setDiscounting, seatFor, setSeatFor, askCovers, setAskCovers, addedSeats, setAddedSeats,
    paying, setPaying, note, error, setError, refused, setRefused, checkHeading, run, send, heldCourses, partySize, seats, pickCovers, moveLine, printBill,
    settled, away,
  };
}
type CheckData = ReturnType<typeof useCheckData>;

/** The party's size, the seat and the course the next dish goes to. */
function CheckChoices({ c, table }: { c: CheckData; table: PlanTable }) {
  return (
    <>
      {c.askCovers ? (
        <CoversPrompt capacity={table.capacity} value={c.partySize} onPick={c.pickCovers} />
      ) : (
        <div class="chips">
          <Button class="chip" onClick={() => c.setAskCovers(true)}>{c.partySize ? t('service.covers.party', { n: c.partySize }) : t('service.covers.unknown')}</Button>
        </div>
      )}
      <SeatChips count={c.seats} seat={c.seat} onSeat={c.setSeat} onMore={() => (c.setAddedSeats(c.addedSeats + 1), c.setSeat(c.seats + 1))} />
      <div class="chips" role="group" aria-label={t('service.course')}>
        <span>{t('service.course')}</span>
        {[1, 2, 3, 4].map((n) => <Button key={n} class="chip" aria-pressed={c.course === n} aria-label={`${t('service.course')} ${n}`} onClick={() => c.setCourse(n)}>{n}</Button>)}
      </div>
    </>
  );
}

/** The lines rung in and not sent yet, the courses to hold, and Send. */
function NewLines({ c }: { c: CheckData }) {
  const { drafts, refused } = c;
  const drop = (d: Draft) => {
    c.setDrafts(drafts.filter((x) => x !== d));
    if (!refused.has(d.key)) return;
    const rest = new Map(refused);
    rest.delete(d.key);
    c.setRefused(rest);
    // the refusal was about this line: it goes with it
    if (!rest.size) c.setError(null);
  };
  return (
    <>
      <h3>{t('service.newLines')}</h3>
      <ul class="check-lines">
        {drafts.map((d) => (
          <li key={d.key} class={refused.has(d.key) ? 'check-line-refused' : ''}>
            <span>
              <span class="line-name">{d.quantity}× {d.item.name}{d.modifiers.length ? ` (${d.modifiers.map((m) => m.name).join(', ')})` : ''}</span>
              <small class="line-meta">S{d.seat} · C{d.course}{refused.has(d.key) ? ` · ${t('service.notSent')}` : ''}</small>
            </span>
            <Button variant="quiet" aria-label={`${t('service.remove')} ${d.item.name}`} onClick={() => drop(d)}>
              {t('service.remove')}
            </Button>
          </li>
        ))}
      </ul>
      <div class="chips">
        {[...new Set(drafts.map((d) => d.course))].filter((n) => n > 1).map((n) => (
          <Button key={n} class="chip" aria-pressed={c.hold.has(n)} onClick={() => c.setHold((h) => { const next = new Set(h); next.has(n) ? next.delete(n) : next.add(n); return next; })}>
            {t('service.hold', { n })}
          </Button>
        ))}
      </div>
      <Button variant="primary" class="wide" disabled={drafts.every((d) => refused.has(d.key))} onClick={c.send}>{t('service.send')}</Button>
    </>
  );
}

/** The rarer moves: fire a held course, transfer, merge, a discount on the whole check. */
function CheckMoves({ c, table, order }: { c: CheckData; table: PlanTable; order: Order | undefined }) {
  return (
    <div class="chips">
      {c.heldCourses.map((n) => <Button key={n} variant="primary" onClick={() => c.run(() => submit<Order>({ kind: 'fire', table: table.id, tableNumber: table.number, order: order!.id, course: n }))}>{t('service.fire', { n })}</Button>)}
      {order ? <Button disabled={c.away} onClick={() => c.setMoving(true)}>{t('service.transfer')}</Button> : null}
      {order ? <Button disabled={c.away} onClick={() => c.setMerging(true)}>{t('service.merge')}</Button> : null}
      {order ? (
        <Button
          disabled={c.away}
          onClick={() => c.setDiscounting({ order: order.id, line: null, base: order.check_discount_base, current: order.check_discount_amount, currency: order.currency })}
        >
          {t('service.discount.checkButton')}
        </Button>
      ) : null}
    </div>
  );
}

/** The sheets a check opens: cash while offline, modifiers, void, discount, seat, merge, transfer. */
function CheckSheets({ c, table, tables, order, openAt, onChanged }: CheckProps & { c: CheckData }) {
  return (
    <>
      {order ? <OfflineCash order={order} table={table} open={c.paying && c.away} onClose={() => c.setPaying(false)} /> : null}
      <ModifierSheet draft={c.picking} groups={c.groups} onClose={() => c.setPicking(null)} onAdd={(d) => (c.setDrafts([...c.drafts, d]), c.setPicking(null))} />
      <VoidSheet
        line={c.voiding}
        onClose={() => c.setVoiding(null)}
        onVoid={async (reason, pin) => {
          // a refusal (no PIN, a wrong one) is thrown to the sheet, which stays open with the reason
          onChanged(await POST('/v1/orders/{id}/items/{index}/void', { path: { id: order!.id, index: c.voiding!.index }, body: { reason, ...(pin ? { manager_pin: pin } : {}) } }));
          c.setVoiding(null);
        }}
      />
      <DiscountSheet
        target={c.discounting}
        onClose={() => c.setDiscounting(null)}
        onApply={async (body: DiscountBody) => {
          const line = c.discounting!.line;
          // a refusal (a wrong PIN) is thrown to the sheet, which stays open to show it
          onChanged(
            await (line
              ? POST('/v1/orders/{id}/items/{index}/discount', { path: { id: order!.id, index: line.index }, body })
              : POST('/v1/orders/{id}/discount', { path: { id: order!.id }, body })),
          );
          c.setDiscounting(null);
        }}
      />
      <MoveToSeat
        line={c.seatFor}
        seats={c.seats}
        onClose={() => c.setSeatFor(null)}
        onMove={async (to) => {
          const l = c.seatFor!;
          c.setSeatFor(null);
          await c.moveLine(l.index, to);
        }}
      />
      <MergeFrom open={c.merging} table={table} tables={tables} openAt={openAt} onClose={() => c.setMerging(false)} onPick={(from) => c.run(() => POST('/v1/orders/{id}/merge', { path: { id: order!.id }, body: { from: from.id } }))} />
      {/* kit: a Dialog, not a FormDialog: a choice of table (tiles), no form */}
      <Dialog title={t('service.transferTo')} open={c.moving} onClose={() => c.setMoving(false)}>
        <TileGrid
          items={tables.filter((x) => x.id !== table.id)}
          label={t('service.transferTo')}
          keyOf={(x) => x.id}
          render={(x) => t('service.table', { n: x.number })}
          onPick={(x) => (c.setMoving(false), c.run(() => POST('/v1/orders/{id}/transfer', { path: { id: order!.id }, body: { table: x.id } })))}
        />
      </Dialog>
    </>
  );
}

/** Which table's check comes onto this one. */
function MergeFrom({ open, table, tables, openAt, onClose, onPick }: { open: boolean; table: PlanTable; tables: PlanTable[]; openAt: (table: string) => Order | undefined; onClose: () => void; onPick: (from: Order) => void }) {
  const others = tables.filter((x) => x.id !== table.id && openAt(x.id));
  return (
    // kit: a Dialog, not a FormDialog: a choice of check (tiles), no form
    <Dialog title={t('service.mergeFrom')} open={open} onClose={onClose}>
      <p class="hint">{t('service.mergeHint')}</p>
      {others.length ? (
        <TileGrid
          items={others}
          label={t('service.mergeFrom')}
          keyOf={(x) => x.id}
          render={(x) => t('service.mergeTable', { n: x.number, total: money(openAt(x.id)!.total, openAt(x.id)!.currency) })}
          onPick={(x) => {
            onClose();
            // the closed check leaves the plan through the live feed, like any other change
            onPick(openAt(x.id)!);
          }}
        />
      ) : (
        <p>{t('service.mergeNone')}</p>
      )}
    </Dialog>
  );
}

/**
 * Search and categories over the menu grid. Their state is this component's own, so a keystroke
 * redraws the grid and not the whole check beside it.
 */
const soldOut = (i: Item) => !i.is_available;

function MenuPanel({ items, cats, onPick }: { items: Item[]; cats: Category[]; onPick: (i: Item) => void }) {
  const [cat, setCat] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  // made once per menu, not on each keystroke: each item's name to search in, and its tile's
  // content (the same nodes each time, so a tile still shown is not drawn again)
  const prepared = useMemo(() => {
    const c = cur();
    return new Map(items.map((i) => [i, { name: i.name.toLowerCase(), tile: <><span>{i.name}</span><small>{i.is_available ? money(i.price, c) : t('service.soldOut')}</small></> }]));
  }, [items]);
  // one function per menu: the grid keeps each item's tile while it stays the same
  const tileOf = useCallback((i: Item) => prepared.get(i)!.tile, [prepared]);
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return items.filter((i) => (q ? prepared.get(i)!.name.includes(q) : !cat || i.category === cat));
  }, [items, prepared, cat, search]);
  return (
    <section aria-label={t('service.search')}>
      <Field label={t('service.search')} type="search" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
      <div class="chips" role="group" aria-label={t('service.all')}>
        <Button class="chip" aria-pressed={cat === null} onClick={() => setCat(null)}>{t('service.all')}</Button>
        {cats.map((c) => (
          <Button key={c.id} class="chip" aria-pressed={cat === c.id} onClick={() => setCat(c.id)}>{c.name}</Button>
        ))}
      </div>
      <TileGrid
        items={shown}
        page={80}
        label={t('service.search')}
        keyOf={(i) => i.id}
        render={tileOf}
        disabled={soldOut}
        onPick={onPick}
      />
    </section>
  );
}

/** Modifiers, quantity and note for one item; a group's bounds are enforced as you tap. */
function ModifierSheet({ draft, groups, onClose, onAdd }: { draft: Draft | null; groups: Map<string, Group>; onClose: () => void; onAdd: (d: Draft) => void }) {
  // `full`: the group a tap found full, said (as the guest's page does) rather than dropping an earlier pick
  const [{ d, full }, set] = useFormFor(draft, (x) => ({ d: x, full: null as string | null }));
  const setD = (next: Draft | null) => set({ d: next, full: null });
  const setFull = (id: string) => set({ full: id });
  const mine = (d?.item.modifier_groups ?? []).flatMap((id) => groups.get(id) ?? []);
  const chosenIn = (g: Group) => (d?.modifiers ?? []).filter((m) => m.group === g.id);
  const ok = mine.every((g) => {
    const n = chosenIn(g).length;
    return n >= Math.max(g.min_selections, g.required ? 1 : 0) && n <= g.max_selections;
  });
  const toggle = (g: Group, name: string) => {
    if (!d) return;
    const has = d.modifiers.some((m) => m.group === g.id && m.name === name);
    let next = has ? d.modifiers.filter((m) => !(m.group === g.id && m.name === name)) : [...d.modifiers, { group: g.id, name }];
    const inGroup = next.filter((m) => m.group === g.id);
    if (!has && inGroup.length > g.max_selections) {
      // a single choice just switches; a fuller group keeps its picks
      if (g.max_selections > 1) return setFull(g.id);
      next = next.filter((m) => m !== inGroup[0]);
    }
    setD({ ...d, modifiers: next });
  };
  const rule = (g: Group) => {
    const min = Math.max(g.min_selections, g.required ? 1 : 0);
    if (min === g.max_selections) return t('service.chooseExactly', { n: min });
    return min > 0 ? t('service.choose', { min, max: g.max_selections }) : t('service.chooseUpTo', { n: g.max_selections });
  };
  return (
    <Dialog title={d?.item.name ?? ''} open={!!draft} onClose={onClose}>
      {d ? (
        <>
          {mine.map((g) => (
            <fieldset key={g.id}>
              <legend>{g.name} · {rule(g)}</legend>
              <div class="chips">
                {g.modifiers.filter((m) => m.is_available).map((m) => (
                  <Button key={m.name} class="chip" aria-pressed={d.modifiers.some((x) => x.group === g.id && x.name === m.name)} onClick={() => toggle(g, m.name)}>
                    {m.name}{m.price_adjustment ? ` +${money(m.price_adjustment, cur())}` : ''}
                  </Button>
                ))}
              </div>
              {full === g.id ? <p class="hint" role="status">{t('service.maxReached', { n: g.max_selections, group: g.name })}</p> : null}
            </fieldset>
          ))}
          <div class="chips" role="group" aria-label={t('service.quantity')}>
            <span>{t('service.quantity')}</span>
            <Button aria-label="−1" onClick={() => setD({ ...d, quantity: Math.max(1, d.quantity - 1) })}>−</Button>
            <span aria-live="polite">{d.quantity}</span>
            <Button aria-label="+1" onClick={() => setD({ ...d, quantity: Math.min(99, d.quantity + 1) })}>+</Button>
          </div>
          <Field label={t('service.note')} value={d.notes} onInput={(e) => setD({ ...d, notes: (e.target as HTMLInputElement).value })} />
          <Button variant="primary" class="wide" disabled={!ok} onClick={() => onAdd(d)}>{t('service.add')}</Button>
        </>
      ) : null}
    </Dialog>
  );
}

const BLANK_VOID = () => ({ reason: '', pin: '', error: null as string | null });

function VoidSheet({ line, onClose, onVoid }: { line: Line | null; onClose: () => void; onVoid: (reason: string, pin: string) => Promise<void> }) {
  const [{ reason, pin, error }, set] = useFormFor(line, BLANK_VOID);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await onVoid(reason, pin);
    } catch (err) {
      // the sheet stays open with the reason typed; the PIN is typed again
      set({ error: err instanceof ApiFailure ? err.message : String(err), pin: '' });
    }
  };
  return (
    // kit: a Dialog, not a FormDialog: a tablet sheet kept mounted for one line after another (useFormFor); a refused PIN is cleared, the reason kept
    <Dialog title={line ? `${t('service.void')}: ${line.name}` : ''} open={!!line} onClose={onClose}>
      <form onSubmit={submit}>
        <Field label={t('service.voidReason')} value={reason} required onInput={(e) => set({ reason: (e.target as HTMLInputElement).value })} />
        {session.value?.role === 'server' ? (
          <Field label={t('service.managerPin')} type="password" inputMode="numeric" maxLength={6} value={pin} onInput={(e) => set({ pin: (e.target as HTMLInputElement).value })} />
        ) : null}
        {error ? <p class="error-text" role="alert">{error}</p> : null}
        <Button variant="danger" type="submit" disabled={!reason.trim()}>{t('service.void')}</Button>
      </form>
    </Dialog>
  );
}
