import { useMemo, useState } from 'preact/hooks';
import { api, get, post } from '../lib/api.ts';
import { money, moneyInput, parseMoney } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { can } from '../lib/session.ts';
import type { components } from '../lib/api.gen.ts';
import type { Order, OrderLine } from '../lib/types.ts';
import { Badge, Button, Dialog, Empty, ErrorNote, Field, useAction, useLoad } from './kit.tsx';

export type Payment = components['schemas']['Payment'];
type Method = Payment['method'];

/** What a payment is for: the lines of a seat (or any lines), or an amount (a share, the rest). */
export type PayTarget = { items: OrderLine[]; amount: number } | { items: null; amount: number; fixed?: boolean };

/**
 * N shares of what is due, the last taking what rounding leaves (5.00 in 3: 1.66, 1.66, 1.68):
 * fixed when the split starts, so each share paid leaves the others as they were shown.
 */
export const evenShares = (amount: number, ways: number): number[] => {
  const share = Math.floor(amount / ways);
  return Array.from({ length: ways }, (_, i) => (i === ways - 1 ? amount - share * (ways - 1) : share));
};

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
  const fixed = !!target.items || ('fixed' in target && !!target.fixed);
  const amount = fixed ? target.amount : (parseMoney(amountText || moneyInput(target.amount, cur), cur) ?? 0);
  const tip = parseMoney(tipText || '0', cur) ?? 0;
  const tendered = tenderedText ? parseMoney(tenderedText, cur) : null;
  const change = tendered !== null ? tendered - amount - tip : null;
  const submit = () =>
    act(async () => {
      const body = {
        method,
        ...(target.items ? { items: target.items.map((l) => l.id) } : { amount }),
        tip_amount: tip,
        ...(method === 'cash' && tendered !== null ? { tendered_amount: tendered } : {}),
        ...(method !== 'cash' && reference.trim() ? { reference: reference.trim() } : {}),
      };
      const p = await api<Payment>('POST', `/v1/orders/${order.id}/payments`, body, undefined, { 'Idempotency-Key': key });
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
  const left = payment.amount - payment.amount_refunded;
  const amount = parseMoney(amountText || moneyInput(left, currency), currency) ?? 0;
  const submit = () =>
    act(async () => {
      await post(`/v1/payments/${payment.id}/refund`, { amount, reason: reason.trim() || null });
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
 */
export function PaymentPanel({ order, onChange }: { order: Order; onChange: () => void }) {
  const [payments, error, reload] = useLoad(async () => (await get<{ data: Payment[] }>('/v1/payments', { order: order.id, limit: 100 })).data, [order.id, order.amount_paid]);
  const [target, setTarget] = useState<PayTarget | null>(null);
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const [ways, setWays] = useState('2');
  // an even split in progress: its shares as fixed when it started, and how many are paid
  const [split, setSplit] = useState<{ shares: number[]; paid: number; share: number | null } | null>(null);
  const cur = order.currency.toUpperCase();
  const paid = paidLines(payments ?? []);
  const seats = new Map<number | null, OrderLine[]>();
  for (const l of order.items) seats.set(l.seat ?? null, [...(seats.get(l.seat ?? null) ?? []), l]);
  const open = order.status !== 'draft' && order.status !== 'cancelled' && order.amount_due > 0 && can('payments:write');
  const n = Math.max(1, Math.min(20, Number(ways) || 1));
  // every amount is the server's: each line's net_amount, each seat's total, what is due
  const payLines = (lines: OrderLine[]) => {
    const unpaidLeft = order.items.filter((l) => !paid.has(l.id) && !l.voided_at && !lines.includes(l));
    // the last lines settle the bill whatever was paid by amount before them (as the server records it)
    setTarget({ items: lines, amount: unpaidLeft.length ? lines.reduce((s, l) => s + l.net_amount, 0) : order.amount_due });
  };
  const running = split && split.paid < split.shares.length ? split : null;
  const nextShare = running ? Math.min(running.shares[running.paid]!, order.amount_due) : null;
  const paySplit = () => {
    const s = running ?? { shares: evenShares(order.amount_due, n), paid: 0, share: null };
    const amount = Math.min(s.shares[s.paid]!, order.amount_due);
    setSplit({ ...s, share: amount });
    setTarget({ items: null, amount, fixed: true });
  };
  const done = () => {
    if (split?.share != null && target && !target.items && target.fixed) setSplit({ ...split, paid: split.paid + 1, share: null });
    setTarget(null);
    setRefunding(null);
    void reload();
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
      <ErrorNote error={error} />
      {[...seats].sort(([a], [b]) => (a ?? 999) - (b ?? 999)).map(([seat, lines]) => {
        const unpaid = lines.filter((l) => !paid.has(l.id) && !l.voided_at && l.net_amount > 0);
        const seatTotal = order.seats.find((s) => s.seat === seat)?.net_amount ?? 0;
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
            {open && unpaid.length ? (
              <Button onClick={() => payLines(unpaid)}>{seat ? t('pay.paySeat', { n: seat }) : t('pay.payLines')}</Button>
            ) : null}
          </div>
        );
      })}
      {open ? (
        <div class="pay-actions">
          <Button variant="primary" onClick={() => setTarget({ items: null, amount: order.amount_due })}>
            {t('pay.payRest')}
          </Button>
          <Field label={t('pay.splitWays')} type="number" min={1} max={20} value={ways} onInput={(e) => setWays((e.target as HTMLInputElement).value)} />
          <Button onClick={paySplit} data-testid="pay-share">
            {t('pay.split')}:{' '}
            {running
              ? t('pay.shareOf', { n: running.paid + 1, ways: running.shares.length, amount: money(nextShare!, cur) })
              : t('pay.shareOf', { n: 1, ways: n, amount: money(evenShares(order.amount_due, n)[0]!, cur) })}
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
                {p.tip_amount ? ` · ${t('pay.tipShort', { amount: money(p.tip_amount, cur) })}` : ''}
                {p.change_amount !== null ? ` · ${t('pay.changeShort', { amount: money(p.change_amount, cur) })}` : ''}
                {p.reference ? ` · ${p.reference}` : ''}
                {p.amount_refunded ? ` · ${t('pay.refunded', { amount: money(p.amount_refunded, cur) })}` : ''}
              </span>
              {can('payments:manage') && p.amount_refunded < p.amount ? (
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
