import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { GET, POST } from '../lib/client.ts';
import { money, parseMoney, todayAtRestaurant } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { Button, ErrorNote, Field, Loading, PageHeader, useAction, useLoad } from '../ui/kit.tsx';

/** an amount taken off, shown with its minus; nothing taken off shows 0.00, not −0.00 */
const minus = (n: number) => (n ? -n : 0);

/** The day's close report for the chosen date, and the two things done from it: count the drawer, print the Z report. */
function useDayCloseData() {
  const [date, setDate] = useState(todayAtRestaurant());
  const [report, error, reload] = useLoad(() => GET('/v1/reports/day_close', { query: { date } }), [date]);
  const [counted, setCounted] = useState('');
  const [printed, setPrinted] = useState(false);
  const [act, busy, actError] = useAction();
  const cur = report?.currency.toUpperCase();
  const count = () =>
    act(async () => {
      const amount = parseMoney(counted, cur);
      if (amount === null) return;
      await POST('/v1/cash_counts', { body: { date, counted_amount: amount } });
      setCounted('');
      await reload();
    });
  const print = () => act(async () => (await POST('/v1/reports/day_close/print', { body: { date } }), setPrinted(true)));
  return { date, setDate, report, error, counted, setCounted, printed, busy, actError, count, print };
}

type DayClose = NonNullable<ReturnType<typeof useDayCloseData>['report']>;

/**
 * Close the day: warns about checks still owing, shows the day's payments (refunds netted),
 * tips by server, the sales in the order they tie out (gross − discounts − comps = net, tax by
 * rate on its base, returns), cancelled checks with who approved, and the cash drawer against
 * its count; records the count and prints the Z report. Every figure is the API's.
 */
export function DayClosePage() {
  const { date, setDate, report, error, counted, setCounted, printed, busy, actError, count, print } = useDayCloseData();
  if (error) return <ErrorNote error={error} />;
  const d = report;
  const cur = d?.currency.toUpperCase();
  return (
    <>
      <PageHeader title={t('close.title')}>
        <Button variant="primary" disabled={busy || !d} onClick={print}>
          {t('close.print')}
        </Button>
      </PageHeader>
      <Field label={t('close.date')} type="date" value={date} onInput={(e) => setDate((e.target as HTMLInputElement).value || todayAtRestaurant())} />
      <ErrorNote error={actError} />
      {printed ? <p role="status">{t('close.printed')}</p> : null}
      {!d ? (
        <Loading />
      ) : (
        <>
          {d.open_orders.count ? (
            <div class="notice notice-warn" role="alert">
              <p>{t('close.openChecks', { n: d.open_orders.count, amount: money(d.open_orders.amount_due, cur) })}</p>
              <ul class="plain-list">
                {d.open_orders.orders.map((o) => (
                  <li key={o.id}>
                    <a href={`/app/orders/${o.id}`}>#{o.order_number}</a> · {money(o.amount_due, cur)}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p class="muted">{t('close.noOpenChecks')}</p>
          )}
          <div class="columns">
            <PaymentsCard d={d} cur={cur} />
            <section class="card">
              <h2>{t('close.sales')}</h2>
              {/* in the order the close ties out: gross − discounts − comps = net; its tax by rate; returns */}
              <dl class="facts tie-out" data-testid="close-sales">
                <dt>{t('close.orders')}</dt>
                <dd>{d.sales.orders}</dd>
                <dt>{t('close.gross')}</dt>
                <dd data-testid="sales-gross">{money(d.sales.gross, cur)}</dd>
                <dt>{t('close.discountsN', { n: d.discounts.count })}</dt>
                <dd data-testid="sales-discounts">{money(minus(d.sales.discounts), cur)}</dd>
                <dt>{t('close.compsN', { n: d.comps.count })}</dt>
                <dd data-testid="sales-comps">{money(minus(d.sales.comps), cur)}</dd>
                <dt class="total">{t(d.prices_include_tax ? 'close.netInclTax' : 'close.net')}</dt>
                <dd class="total" data-testid="sales-net">{money(d.sales.net, cur)}</dd>
                {d.sales.by_tax_rate.map((r) => (
                  <Fragment key={r.rate}>
                    <dt>{t('close.taxOn', { rate: +(r.rate * 100).toFixed(2), base: money(r.base, cur) })}</dt>
                    <dd>{money(r.tax, cur)}</dd>
                  </Fragment>
                ))}
                <dt>{t('close.netExclTax')}</dt>
                <dd data-testid="sales-net-excl-tax">{money(d.sales.net_excl_tax, cur)}</dd>
                <dt>{t('close.billed')}</dt>
                <dd data-testid="sales-total">{money(d.sales.total, cur)}</dd>
                <dt>{t('close.returns')}</dt>
                <dd data-testid="sales-returns">{money(minus(d.sales.refunds), cur)}</dd>
                <dt class="total">{t('close.netAfterReturns')}</dt>
                <dd class="total" data-testid="sales-net-after-returns">{money(d.sales.net_after_returns, cur)}</dd>
                <dt>{t('close.voidsAmount', { n: d.voids.count })}</dt>
                <dd data-testid="sales-voids">{money(d.voids.amount, cur)}</dd>
              </dl>
              <h2>{t('close.cancellations')}</h2>
              {d.cancellations.count ? (
                <ul class="plain-list" data-testid="cancellations">
                  {d.cancellations.orders.map((o) => (
                    <li key={o.id}>
                      <a href={`/app/orders/${o.id}`}>#{o.order_number}</a> · {money(o.amount, cur)} · {o.reason ?? ''} ·{' '}
                      {t('close.approvedBy', { name: o.approved_by_name ?? (o.approved_by ? o.approved_by : t('close.byKey')) })}
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="muted">{t('close.noCancellations')}</p>
              )}
              <h2>{t('close.cash')}</h2>
              <dl class="facts">
                <dt>{t('close.openingFloat')}</dt>
                <dd>{money(d.cash.opening_float, cur)}</dd>
                <dt>{t('close.cashSales')}</dt>
                <dd>{money(d.cash.sales, cur)}</dd>
                <dt>{t('close.cashTips')}</dt>
                <dd>{money(d.cash.tips, cur)}</dd>
                <dt>{t('close.paidIn')}</dt>
                <dd>{money(d.cash.paid_in, cur)}</dd>
                <dt>{t('close.paidOut')}</dt>
                <dd>{money(minus(d.cash.paid_out), cur)}</dd>
                <dt>{t('close.expected')}</dt>
                <dd data-testid="cash-expected">{money(d.cash.expected, cur)}</dd>
                <dt>{t('close.counted')}</dt>
                <dd>{d.cash.counted === null ? t('close.notCounted') : money(d.cash.counted, cur)}</dd>
                <dt>{t('close.overShort')}</dt>
                <dd data-testid="cash-over-short">{d.cash.over_short === null ? '—' : money(d.cash.over_short, cur)}</dd>
              </dl>
              <Field label={t('close.countedAmount')} inputMode="decimal" value={counted} onInput={(e) => setCounted((e.target as HTMLInputElement).value)} />
              <Button disabled={busy || parseMoney(counted, cur) === null} onClick={count}>
                {t('close.countCash')}
              </Button>
            </section>
          </div>
        </>
      )}
    </>
  );
}

function PaymentsCard({ d, cur }: { d: DayClose; cur: string | undefined }) {
  return (
    <section class="card">
      <h2>{t('close.byMethod')}</h2>
      {/* kit: stays a table of its own: a Z report's figures with a footer of sums (tfoot), which DataTable has no place for */}
      <table class="data">
        <thead>
          <tr>
            <th scope="col">{t('pay.method')}</th>
            <th scope="col" class="num">{t('close.count')}</th>
            <th scope="col" class="num">{t('close.refunds')}</th>
            <th scope="col" class="num">{t('close.tips')}</th>
            <th scope="col" class="num">{t('close.total')}</th>
          </tr>
        </thead>
        <tbody>
          {d.by_method.map((m) => (
            <tr key={m.method} data-method={m.method}>
              <td>{t(`pay.method.${m.method}` as Key)}</td>
              <td class="num">{m.count}</td>
              <td class="num">{m.refunded_amount ? money(-m.refunded_amount, cur) : money(0, cur)}</td>
              <td class="num">{money(m.tip_amount, cur)}</td>
              <td class="num">{money(m.amount, cur)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr class="total">
            <td colSpan={3}>{t('close.total')}</td>
            <td class="num">{money(d.total_tips, cur)}</td>
            <td class="num" data-testid="close-total">{money(d.payments.net, cur)}</td>
          </tr>
        </tfoot>
      </table>
      <h2>{t('close.tipsByServer')}</h2>
      <ul class="plain-list">
        {d.tips_by_server.map((s) => (
          <li key={String(s.server)}>
            {s.name ?? t('close.noServer')} · {money(s.tip_amount, cur)}
          </li>
        ))}
      </ul>
    </section>
  );
}
