import { useMemo, useState } from 'preact/hooks';
import { GET, POST } from '../lib/client.ts';
import { money, moneyInput, parseMoney } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { can } from '../lib/session.ts';
import type { components } from '../lib/api.gen.ts';
import type { Order, OrderLine } from '../lib/types.ts';
import { Badge, Button, Dialog, Empty, ErrorNote, Field, useAction, useLoad } from './kit.tsx';

export type Payment = components['schemas']['Payment'];
/** A check's balance as the server computes it: seats' paid and due, an even split's shares. */
export type OrderBalance = components['schemas']['OrderBalance'];
type Method = Payment['method'];

/**
 * What a payment is for: the lines of a seat (or any lines), one share of a line split between
 * guests (the server picks which share; `amount` is what its balance said), or an amount (a share
 * of the bill, the rest).
 */
export type PayTarget =
  | { items: OrderLine[]; amount: number }
  | { items: null; share: { line: OrderLine; parts: number; part: number }; amount: number }
  | { items: null; amount: number; fixed?: boolean };

/** Lines already paid by a payment that was not refunded whole. */
export function paidLines(payments: Payment[]): Set<string> {
  return new Set(payments.filter((p) => p.status !== 'refunded').flatMap((p) => p.items ?? []));
}

/**
 * The payment dialog: method, tip, cash given and the change, the terminal's reference.
 * Records the payment through the API (one Idempotency-Key per opening, so a retried tap
 * records it once) and hands the payment back. Used by the order detail and order entry.
 */
export function PayDialog({ order, target, onClose, onPaid }: { order: Order; target: PayTarget | null; onClose: () => void; onPaid: (p: Payment) => void }) {
  const [method, setMethod] = useState<Method>('card');
  const [amountText, setAmountText] = useState('');
  const [tipText, setTipText] = useState('');
  const [tenderedText, setTenderedText] = useState('');
  const [reference, setReference] = useState('');
  const [act, busy, error, clear] = useAction();
  const key = useMemo(() => `pay-${order.id}-${Date.now()}-${Math.random().toString(36).slice(2)}`, [target]);
  const cur = order.currency.toUpperCase();
  if (!target) return null;
  const share = 'share' in target ? target.share : null;
  const fixed = !!target.items || !!share || ('fixed' in target && !!target.fixed);
  const amount = fixed ? target.amount : (parseMoney(amountText || moneyInput(target.amount, cur), cur) ?? 0);
  const tip = parseMoney(tipText || '0', cur) ?? 0;
  const tendered = tenderedText ? parseMoney(tenderedText, cur) : null;
  const change = tendered !== null ? tendered - amount - tip : null;
  const submit = () =>
    act(async () => {
      const body = {
        method,
        ...(target.items ? { items: target.items.map((l) => l.id) } : share ? { item_shares: [{ item: share.line.id, parts: share.parts }] } : { amount }),
        tip_amount: tip,
        ...(method === 'cash' && tendered !== null ? { tendered_amount: tendered } : {}),
        ...(method !== 'cash' && reference.trim() ? { reference: reference.trim() } : {}),
      };
      const p = await POST('/v1/orders/{id}/payments', { path: { id: order.id }, body, headers: { 'Idempotency-Key': key } });
      setAmountText('');
      setTipText('');
      setTenderedText('');
      setReference('');
      onPaid(p);
    });
  const close = () => {
    clear();
    onClose();
  };
  return (
    <Dialog title={t('pay.take')} open={!!target} onClose={close}>
      <div class="pay-dialog">
        {target.items ? (
          <ul class="plain-list">
            {target.items.map((l) => (
              <li key={l.id}>
                {l.quantity}× {l.name}
              </li>
            ))}
          </ul>
        ) : share ? (
          <p data-testid="pay-share">
            {share.line.quantity}× {share.line.name} · {t('service.shareOf', { n: share.part, parts: share.parts })}
          </p>
        ) : null}
        <fieldset class="segmented">
          <legend>{t('pay.method')}</legend>
          {(['card', 'cash', 'other'] as const).map((m) => (
            <label key={m} class={method === m ? 'on' : ''}>
              <input type="radio" name="pay-method" value={m} checked={method === m} onChange={() => setMethod(m)} />
              {t(`pay.method.${m}` as Key)}
            </label>
          ))}
        </fieldset>
        {fixed ? (
          <p class="pay-amount" data-testid="pay-amount">
            {t('pay.amount')}: <strong>{money(amount, cur)}</strong>
          </p>
        ) : (
          <Field label={t('pay.amount')} inputMode="decimal" value={amountText || moneyInput(target.amount, cur)} onInput={(e) => setAmountText((e.target as HTMLInputElement).value)} />
        )}
        <Field label={t('pay.tip')} inputMode="decimal" value={tipText} onInput={(e) => setTipText((e.target as HTMLInputElement).value)} />
        {method === 'cash' ? (
          <>
            <Field label={t('pay.tendered')} inputMode="decimal" value={tenderedText} onInput={(e) => setTenderedText((e.target as HTMLInputElement).value)} />
            {change !== null && change >= 0 ? (
              <p class="pay-change" role="status">
                {t('pay.change', { amount: money(change, cur) })}
              </p>
            ) : null}
          </>
        ) : (
          <Field label={t('pay.reference')} value={reference} onInput={(e) => setReference((e.target as HTMLInputElement).value)} />
        )}
        <ErrorNote error={error} />
        <div class="dialog-actions">
          <Button onClick={close}>{t('pay.cancel')}</Button>
          <Button variant="primary" disabled={busy || amount <= 0} onClick={submit}>
            {t('pay.confirm', { amount: money(amount + tip, cur) })}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/** Gives money back on one payment (all that is left, or part of it) with a reason. */
export function RefundDialog({ payment, currency, onClose, onDone }: { payment: Payment | null; currency: string; onClose: () => void; onDone: () => void }) {
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [act, busy, error, clear] = useAction();
  if (!payment) return null;
  const left = payment.amount_refundable;
  const amount = parseMoney(amountText || moneyInput(left, currency), currency) ?? 0;
  const submit = () =>
    act(async () => {
      await POST('/v1/payments/{id}/refund', { path: { id: payment.id }, body: { amount, reason: reason.trim() || null } });
      setAmountText('');
      setReason('');
      onDone();
    });
  const close = () => {
    clear();
    onClose();
  };
  return (
    <Dialog title={t('pay.refundTitle')} open={!!payment} onClose={close}>
      <Field
        label={t('pay.refundAmount', { amount: money(left, currency) })}
        inputMode="decimal"
        value={amountText || moneyInput(left, currency)}
        onInput={(e) => setAmountText((e.target as HTMLInputElement).value)}
      />
      <Field label={t('pay.refundReason')} value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
      <ErrorNote error={error} />
      <div class="dialog-actions">
        <Button onClick={close}>{t('pay.cancel')}</Button>
        <Button variant="danger" disabled={busy || amount <= 0} onClick={submit}>
          {t('pay.confirmRefund', { amount: money(amount, currency) })}
        </Button>
      </div>
    </Dialog>
  );
}

/**
 * The bill of one order and its payments: lines by seat, each seat paid on its own; an even
 * split; the rest; and the payments taken, each refundable by a manager. Takes the order as
 * shown and calls `onChange` after every payment or refund (the caller reloads the order).
 * Every amount is the server's: lines and seats from the order, what a seat or a share asks
 * for from GET /v1/orders/{id}/balance (the same rule the payment is recorded by).
 */
export function PaymentPanel({ order, onChange }: { order: Order; onChange: () => void }) {
  const [payments, error, reload] = useLoad(async () => (await GET('/v1/payments', { query: { order: order.id, limit: 100 } })).data, [order.id, order.amount_paid]);
  const [target, setTarget] = useState<PayTarget | null>(null);
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const [ways, setWays] = useState('2');
  const n = Math.max(2, Math.min(20, Math.floor(Number(ways)) || 2));
  // the shares are the bill's, fixed on the server: a share paid leaves the others as they were shown
  const [balance, balanceError, reloadBalance] = useLoad(
    () => GET('/v1/orders/{id}/balance', { path: { id: order.id }, query: { split: n } }),
    [order.id, order.amount_paid, order.total, order.amount_returned, n],
  );
  const cur = order.currency.toUpperCase();
  // lines paid whole, and lines split between guests whose every share is paid
  const paid = new Set([...paidLines(payments ?? []), ...(balance?.split_items ?? []).filter((x) => !x.next).map((x) => x.item)]);
  const seats = new Map<number | null, OrderLine[]>();
  for (const l of order.items) seats.set(l.seat ?? null, [...(seats.get(l.seat ?? null) ?? []), l]);
  const open = order.status !== 'draft' && order.status !== 'cancelled' && order.amount_due > 0 && can('payments:write');
  const seatBalance = (seat: number | null) => balance?.seats.find((s) => s.seat === seat);
  const payLines = (seat: number | null) => {
    const b = seatBalance(seat);
    if (!b) return;
    const ids = new Set(b.unpaid_items);
    setTarget({ items: order.items.filter((l) => ids.has(l.id)), amount: b.due });
  };
  const next = balance?.split?.next ?? null;
  const paySplit = () => {
    if (next) setTarget({ items: null, amount: next.due, fixed: true });
  };
  const done = () => {
    setTarget(null);
    setRefunding(null);
    void reload();
    void reloadBalance();
    onChange();
  };
  return (
    <section class="card payment-panel" aria-labelledby="pay-title">
      <h2 id="pay-title">
        {t('pay.title')} <Badge tone={order.payment_status === 'paid' ? 'good' : order.payment_status === 'partially_paid' ? 'warn' : 'neutral'}>{t(`pay.status.${order.payment_status}` as Key)}</Badge>
      </h2>
      <dl class="facts">
        <dt>{t('pay.total')}</dt>
        <dd data-testid="order-total">{money(order.total, cur)}</dd>
        <dt>{t('pay.paid')}</dt>
        <dd data-testid="amount-paid">{money(order.amount_paid, cur)}</dd>
        <dt>{t('pay.due')}</dt>
        <dd data-testid="amount-due">
          <strong>{money(order.amount_due, cur)}</strong>
        </dd>
      </dl>
      <ErrorNote error={error ?? balanceError} />
      {[...seats].sort(([a], [b]) => (a ?? 999) - (b ?? 999)).map(([seat, lines]) => {
        const b = seatBalance(seat);
        const seatTotal = order.seats.find((s) => s.seat === seat)?.net_amount ?? 0;
        // a seat whose lines cost more than is left (paid by amount) is paid with the rest instead
        const payable = !!b && b.unpaid_items.length > 0 && b.due > 0 && b.due <= order.amount_due;
        return (
          <div class="seat-group" key={String(seat)} data-seat={seat ?? ''}>
            <h3>{seat ? t('pay.seat', { n: seat }) : t('pay.noSeat')}</h3>
            <ul class="plain-list">
              {lines.map((l) => (
                <li key={l.id} class={paid.has(l.id) || l.voided_at ? 'muted' : ''} data-line={l.id}>
                  {l.voided_at ? <s>{l.quantity}× {l.name}</s> : `${l.quantity}× ${l.name}`} · <span data-testid="line-net">{money(l.net_amount, cur)}</span>{' '}
                  {l.voided_at ? <Badge tone="neutral">{t('pay.lineVoided')}</Badge> : l.comped ? <Badge tone="neutral">{t('pay.lineComp')}</Badge> : null}
                  {paid.has(l.id) ? <Badge tone="good">{t('pay.linePaid')}</Badge> : null}
                </li>
              ))}
            </ul>
            <p class="seat-total">
              {t('pay.seatTotal')}: <strong data-testid="seat-total">{money(seatTotal, cur)}</strong>
            </p>
            {open && payable ? (
              <Button onClick={() => payLines(seat)}>{seat ? t('pay.paySeat', { n: seat }) : t('pay.payLines')}</Button>
            ) : null}
          </div>
        );
      })}
      {open ? (
        <div class="pay-actions">
          <Button variant="primary" onClick={() => setTarget({ items: null, amount: order.amount_due })}>
            {t('pay.payRest')}
          </Button>
          <Field label={t('pay.splitWays')} type="number" min={2} max={20} value={ways} onInput={(e) => setWays((e.target as HTMLInputElement).value)} />
          <Button onClick={paySplit} disabled={!next || balance?.split?.ways !== n || balance.amount_due !== order.amount_due} data-testid="pay-share">
            {t('pay.split')}
            {next ? `: ${t('pay.shareOf', { n: next.n, ways: balance!.split!.ways, amount: money(next.due, cur) })}` : ''}
          </Button>
        </div>
      ) : null}
      <h3>{t('pay.history')}</h3>
      {!payments?.length ? (
        <Empty>{t('pay.none')}</Empty>
      ) : (
        <ul class="plain-list payments">
          {payments.map((p) => (
            <li key={p.id} class="job-line" data-payment={p.id}>
              <span>
                {t(`pay.method.${p.method}` as Key)} · <strong>{money(p.amount, cur)}</strong>
                {p.item_shares.length ? ` · ${p.item_shares.map((x) => t('service.shareOf', { n: x.part, parts: x.parts })).join(', ')}` : ''}
                {p.tip_amount ? ` · ${t('pay.tipShort', { amount: money(p.tip_amount, cur) })}` : ''}
                {p.change_amount !== null ? ` · ${t('pay.changeShort', { amount: money(p.change_amount, cur) })}` : ''}
                {p.reference ? ` · ${p.reference}` : ''}
                {p.amount_refunded ? ` · ${t('pay.refunded', { amount: money(p.amount_refunded, cur) })}` : ''}
              </span>
              {can('payments:manage') && p.amount_refundable > 0 ? (
                <Button variant="quiet" onClick={() => setRefunding(p)}>
                  {t('pay.refund')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <PayDialog order={order} target={target} onClose={() => setTarget(null)} onPaid={done} />
      <RefundDialog payment={refunding} currency={cur} onClose={() => setRefunding(null)} onDone={done} />
    </section>
  );
}
