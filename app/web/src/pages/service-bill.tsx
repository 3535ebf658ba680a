import { useState } from 'preact/hooks';
import { GET } from '../lib/client.ts';
import { money } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import type { Order as ApiOrder, OrderLine } from '../lib/types.ts';
import { Badge, Button, Dialog, useLoad } from '../ui/kit.tsx';
import { SplitOneItem } from './service-split-item.tsx';
import { paidLines, PayDialog, PaymentPanel, type PayTarget } from '../ui/payment.tsx';

/**
 * The check as a server reads it at the table: lines by seat with what each costs, seat
 * subtotals, the total and what is still due, and the kitchen's state of every line. Every
 * amount is the hub's (a line's `net_amount`, a seat's total from `order.seats`, `amount_due`):
 * nothing here prices a line.
 */
export interface BillLine {
  id: string;
  index: number;
  name: string;
  quantity: number;
  seat: number | null;
  course: number | null;
  held: boolean;
  voided_at: number | null;
  status: string;
  sent_to_kitchen_at: number | null;
  modifiers: { name: string; price_adjustment: number }[];
  unit_price: number;
  /** the line's price before any discount, the hub's: what a line discount is taken from */
  subtotal: number;
  discount_amount: number;
  discount_reason: string | null;
  comped: boolean;
  net_amount: number;
}
export interface BillOrder {
  id: string;
  currency: string;
  total: number;
  tax_amount: number;
  prices_include_tax: boolean;
  amount_paid: number;
  amount_due: number;
  covers: number | null;
  seats: { seat: number | null; net_amount: number; tax_amount: number; lines: number }[];
  items: BillLine[];
}

/** The kitchen's word for where a line is: held, not sent, at the stations, ready, served. */
export function kitchenState(l: BillLine): string {
  if (l.voided_at) return t('service.voided');
  if (l.held) return t('service.held');
  if (!l.sent_to_kitchen_at) return t('service.notSent');
  return t(`service.state.${l.status}` as Key);
}

/** How many seat chips a table offers: its party (or its seats), any seat a line sits at, and those added. */
export const seatCount = (capacity: number, covers: number | null, order: BillOrder | undefined, added: number) =>
  Math.max((covers ?? capacity) + added, ...(order?.items ?? []).map((l) => l.seat ?? 0), 1);

/** "How many guests?" when a table is opened: one tap, 1 to the table's seats, more on demand. */
export function CoversPrompt({ capacity, value, onPick }: { capacity: number; value: number | null; onPick: (n: number) => void }) {
  const [extra, setExtra] = useState(0);
  const top = Math.max(capacity, value ?? 0) + extra;
  return (
    <section class="covers-prompt" aria-labelledby="covers-title">
      <h2 id="covers-title">{t('service.covers.ask')}</h2>
      <div class="chips" role="group" aria-labelledby="covers-title">
        {Array.from({ length: top }, (_, i) => i + 1).map((n) => (
          <Button key={n} class="chip covers-chip" aria-pressed={value === n} aria-label={t('service.covers.n', { n })} onClick={() => onPick(n)}>{n}</Button>
        ))}
        <Button class="chip covers-chip" onClick={() => setExtra(extra + 1)} aria-label={t('service.covers.more')}>+</Button>
      </div>
    </section>
  );
}

/** Seat chips for ringing in: up to the party (or the table's seats), "+ seat" for one more. */
export function SeatChips({ count, seat, onSeat, onMore }: { count: number; seat: number; onSeat: (n: number) => void; onMore: () => void }) {
  return (
    <div class="chips" role="group" aria-label={t('service.seat')}>
      <span>{t('service.seat')}</span>
      {Array.from({ length: count }, (_, i) => i + 1).map((n) => (
        <Button key={n} class="chip" aria-pressed={seat === n} aria-label={`${t('service.seat')} ${n}`} onClick={() => onSeat(n)}>{n}</Button>
      ))}
      <Button class="chip" onClick={onMore}>{t('service.seatMore')}</Button>
    </div>
  );
}

const seatName = (seat: number | null) => (seat === null ? t('service.noSeat') : `${t('service.seat')} ${seat}`);

/**
 * The sent lines grouped by seat (the lines nobody seated, a guest's QR order, last under "No
 * seat"), each with its price and its kitchen state, and the seat's subtotal from the hub. A
 * line is dragged onto another seat's group, or moved with its "Move to seat" button.
 */
export function CheckBySeat({ order, actions, onDropOnSeat }: { order: BillOrder; actions: (l: BillLine) => preact.ComponentChildren; onDropOnSeat: (index: number, seat: number) => void }) {
  const groups = new Map<number | null, BillLine[]>();
  for (const l of order.items) groups.set(l.seat, [...(groups.get(l.seat) ?? []), l]);
  const seats = [...groups.keys()].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));
  // a line dragged by its grip with a finger or the mouse (pointer events: HTML drag and drop
  // has no touch on many tablets); the seat under the pointer is lit and takes the line on release
  const [over, setOver] = useState<number | null>(null);
  const [dragging, setDragging] = useState<BillLine | null>(null);
  const seatAt = (x: number, y: number) => {
    const at = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-seat]')?.dataset.seat;
    return at && at !== 'none' ? Number(at) : null;
  };
  const grip = (l: BillLine) => ({
    onPointerDown: (e: PointerEvent) => {
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
      setDragging(l);
    },
    onPointerMove: (e: PointerEvent) => dragging && setOver(seatAt(e.clientX, e.clientY)),
    onPointerUp: (e: PointerEvent) => {
      const to = seatAt(e.clientX, e.clientY);
      setDragging(null);
      setOver(null);
      if (to !== null && to !== l.seat) onDropOnSeat(l.index, to);
    },
    onPointerCancel: () => (setDragging(null), setOver(null)),
  });
  return (
    <div class="check-seats">
      {seats.map((seat) => {
        const total = order.seats.find((s) => s.seat === seat)?.net_amount ?? 0;
        return (
          <section
            key={String(seat)}
            class={`seat-lines${dragging && over === seat && seat !== dragging.seat ? ' drop-here' : ''}`}
            data-seat={seat ?? 'none'}
            aria-label={seatName(seat)}
          >
            <h3 class="seat-head">
              <span>{seatName(seat)}</span>
              <span class="seat-sum" data-seat-total={total}>{money(total, order.currency)}</span>
            </h3>
            <ul class="check-lines">
              {groups.get(seat)!.map((l) => (
                <li
                  key={l.index}
                  class={`${l.voided_at ? 'check-line-voided' : ''}${dragging === l ? ' is-dragged' : ''}`}
                  data-line={l.index}
                >
                  <span class="line-main">
                    {!l.voided_at ? <span class="line-grip" aria-hidden="true" title={t('service.dragHint')} {...grip(l)}>⠿</span> : null}
                    <span class="line-name">{l.quantity}× {l.name}{l.modifiers.length ? ` (${l.modifiers.map((m) => m.name).join(', ')})` : ''}</span>
                    <span class={`kitchen-state state-${l.voided_at ? 'voided' : l.held ? 'held' : !l.sent_to_kitchen_at ? 'unsent' : l.status}`}>{kitchenState(l)}</span>
                    {l.comped && !l.voided_at ? <Badge tone="neutral">{t('pay.lineComp')}</Badge> : null}
                    <span class="line-price" data-net={l.net_amount}>{l.voided_at ? <s>{money(l.net_amount, order.currency)}</s> : money(l.net_amount, order.currency)}</span>
                  </span>
                  <span class="line-sub">
                    <small class="line-meta">
                      {t('service.course')} {l.course ?? '–'}
                      {l.discount_amount && !l.voided_at ? (
                        <span class="line-discount">
                          {' · '}{l.comped ? t('service.discount.comped') : `−${money(l.discount_amount, order.currency)}`} · {l.discount_reason}
                        </span>
                      ) : null}
                    </small>
                    {!l.voided_at ? <span class="line-actions">{actions(l)}</span> : null}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

/** The check's running total and what is still due, large enough to read across a table. */
export function CheckTotals({ order }: { order: BillOrder }) {
  return (
    <dl class="check-sums">
      {/* tax on top is a line above the total; tax inside the prices is told beside it (one wording everywhere: tax.*) */}
      {order.prices_include_tax ? null : (
        <div class="check-tax">
          <dt>{t('tax.onTop')}</dt>
          <dd>{money(order.tax_amount, order.currency)}</dd>
        </div>
      )}
      <div class="check-total" data-total={order.total}>
        <dt>{t('service.total')}</dt>
        <dd>
          {money(order.total, order.currency)}
          {order.prices_include_tax ? (
            <>
              {' '}
              <small>
                {t('tax.included')} {money(order.tax_amount, order.currency)}
              </small>
            </>
          ) : null}
        </dd>
      </div>
      {order.amount_paid ? (
        <div data-paid={order.amount_paid}>
          <dt>{t('service.paid')}</dt>
          <dd>{money(order.amount_paid, order.currency)}</dd>
        </div>
      ) : null}
      <div class="check-due" data-due={order.amount_due}>
        <dt>{t('service.due')}</dt>
        <dd>{money(order.amount_due, order.currency)}</dd>
      </div>
    </dl>
  );
}

/** Where a line goes: one tap on a seat (more seats on demand). */
export function MoveToSeat({ line, seats, onMove, onClose }: { line: BillLine | null; seats: number; onMove: (seat: number) => Promise<void>; onClose: () => void }) {
  const [extra, setExtra] = useState(0);
  const n = Math.max(seats, line?.seat ?? 0) + extra;
  return (
    // kit: a Dialog, not a FormDialog: a pick of a seat (chips), no form
    <Dialog title={line ? t('service.moveTitle', { name: line.name }) : ''} open={!!line} onClose={() => (setExtra(0), onClose())}>
      <div class="chips seat-picker" role="group" aria-label={t('service.seat')}>
        {Array.from({ length: n }, (_, i) => i + 1).map((s) => (
          <Button key={s} class="chip" aria-pressed={line?.seat === s} disabled={line?.seat === s} aria-label={`${t('service.seat')} ${s}`} onClick={() => void onMove(s).then(() => setExtra(0))}>{s}</Button>
        ))}
        <Button class="chip" onClick={() => setExtra(extra + 1)}>{t('service.seatMore')}</Button>
      </div>
    </Dialog>
  );
}

/**
 * Paying at the table: the back office's payment panel (by seat, the rest, evenly in N, tips,
 * cash and change, refunds), and beside it the lines a guest points at ("I had these two").
 * `order` is the check as the API (or its live feed) gave it: the panel sees the hub's numbers only.
 */
export function PayPane({ order, onChanged, onBack }: { order: ApiOrder; onChanged: (o: ApiOrder) => void; onBack: () => void }) {
  const [payments] = useLoad(async () => (await GET('/v1/payments', { query: { order: order.id, limit: 100 } })).data, [order.id, order.amount_paid]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [target, setTarget] = useState<PayTarget | null>(null);
  // after a payment the check is read again (the live feed brings it too, a moment later)
  const refresh = async () => onChanged(await GET('/v1/orders/{id}', { path: { id: order.id } }));
  const paid = paidLines(payments ?? []);
  const open = order.amount_due > 0;
  // a line being paid in shares is paid by its shares (Split one item), not chosen whole
  const [shared] = useLoad(async () => new Set((await GET('/v1/orders/{id}/balance', { path: { id: order.id } })).split_items.map((x) => x.item)), [order.id, order.amount_due]);
  const payable = order.items.filter((l) => !l.voided_at && !paid.has(l.id) && l.net_amount > 0 && !shared?.has(l.id));
  const picked = payable.filter((l) => chosen.has(l.id));
  // what paying exactly these lines records, as the hub works it out (GET /v1/orders/{id}/balance?items=)
  const [charge] = useLoad(
    async () => (picked.length ? (await GET('/v1/orders/{id}/balance', { path: { id: order.id }, query: { items: picked.map((l) => l.id).join(',') } })).items_charge : null),
    [order.id, order.amount_due, picked.map((l) => l.id).join(',')],
  );
  const pickedAmount = charge && charge.items.length === picked.length ? charge.amount : null;
  const toggle = (l: OrderLine) => setChosen((c) => { const n = new Set(c); n.has(l.id) ? n.delete(l.id) : n.add(l.id); return n; });
  return (
    <section class="pay-pane" aria-label={t('service.payTitle')}>
      <div class="pay-pane-bar">
        <Button onClick={onBack}>{t('service.backToMenu')}</Button>
      </div>
      <PaymentPanel order={order} onChange={() => void refresh()} />
      {open && payable.length ? (
        <section class="card pay-items" aria-labelledby="pay-items-title">
          <h2 id="pay-items-title">{t('service.byItems')}</h2>
          <p class="hint">{t('service.byItemsHint')}</p>
          <div class="chips" role="group" aria-labelledby="pay-items-title">
            {payable.map((l) => (
              <Button key={l.id} class="chip pay-item" aria-pressed={chosen.has(l.id)} onClick={() => toggle(l)}>
                {l.quantity}× {l.name} · {money(l.net_amount, order.currency)}
              </Button>
            ))}
          </div>
          <Button variant="primary" disabled={!picked.length || pickedAmount === null} onClick={() => pickedAmount !== null && setTarget({ items: picked, amount: pickedAmount })}>
            {t('service.payItems', { n: picked.length, amount: pickedAmount === null ? '…' : money(pickedAmount, order.currency) })}
          </Button>
        </section>
      ) : null}
      {open ? <SplitOneItem order={order} onPay={setTarget} /> : null}
      <PayDialog order={order} target={target} onClose={() => setTarget(null)} onPaid={() => (setTarget(null), setChosen(new Set()), void refresh())} />
    </section>
  );
}
