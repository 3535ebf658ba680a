import { useEffect, useState } from 'preact/hooks';
import { GET, PATCH, POST, getAll } from '../lib/client.ts';
import { money, when } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { can } from '../lib/session.ts';
import { NEXT_STATUSES, type OrderStatus } from '../lib/types.ts';
import { Badge, Button, Dialog, ErrorNote, Loading, PageHeader, TextArea, useAction, useLoad } from '../ui/kit.tsx';
import { JobList, JobState } from '../ui/job-list.tsx';
import { PaymentPanel } from '../ui/payment.tsx';
import { statusTone } from './orders.tsx';

/** The order sources the back office names in words (i18n `source.*`). */
const SOURCES = ['api', 'pos', 'qr', 'staff', 'widget'];

/** The order with its table, its print jobs and the stations' names; live on the order's topic. */
function useOrderDetailData(id: string) {
  const [order, error, reload, setOrder] = useLoad(() => GET('/v1/orders/{id}', { path: { id }, query: { 'expand[]': ['table'] } }), [id]);
  const [jobs, , reloadJobs] = useLoad(
    async () => (can('printers:read') ? (await GET('/v1/print_jobs', { query: { order: id, limit: 100 } })).data : []),
    [id],
  );
  // a ticket names its station as the kitchen calls it, not by its key
  const [stations] = useLoad(async () => (can('menu:read') ? getAll('/v1/stations') : []));
  const stationName = (key: string) => stations?.find((s) => s.key === key)?.name ?? key;
  useEffect(
    () =>
      live.listen(
        [`order:${id}`],
        (m) => {
          if (m.type === 'order' && m.data.id === id) void reload();
        },
        () => void reload(),
      ),
    [id],
  );
  return { order, error, reload, setOrder, jobs, reloadJobs, stationName };
}

type DetailOrder = NonNullable<ReturnType<typeof useOrderDetailData>['order']>;
type PrintJobs = ReturnType<typeof useOrderDetailData>['jobs'];

export function OrderDetailPage({ params }: { params: string[] }) {
  const id = params[0];
  const { order, error, reload, setOrder, jobs, reloadJobs, stationName } = useOrderDetailData(id);
  const [act, busy, actError] = useAction();
  const [cancelling, setCancelling] = useState(false);
  const [reason, setReason] = useState('');

  if (error) return <ErrorNote error={error} />;
  if (!order) return <Loading />;
  const o = order;
  const table = typeof o.table === 'object' && o.table ? o.table.number : null;
  const writable = can('orders:write');

  const move = (status: OrderStatus) => act(async () => setOrder(await PATCH('/v1/orders/{id}', { path: { id }, body: { status: status as Exclude<OrderStatus, 'draft'> } })));
  const cancel = async () => {
    if (await act(async () => setOrder(await POST('/v1/orders/{id}/cancel', { path: { id }, body: { cancel_reason: reason.trim() || null } })))) setCancelling(false);
  };
  const receipt = () => act(async () => (await POST('/v1/orders/{id}/receipt', { path: { id } }), await reloadJobs()));
  const reprint = (job: string) => act(async () => (await POST('/v1/print_jobs/{id}/reprint', { path: { id: job } }), await reloadJobs()));

  return (
    <>
      <p class="crumbs">
        <a href="/app/orders">← {t('orders.title')}</a>
      </p>
      <PageHeader title={t('order.title', { n: o.order_number })}>
        <Badge tone={statusTone(o.status)}>{t(`orderStatus.${o.status}` as Key)}</Badge>
      </PageHeader>
      <ErrorNote error={actError} />
      {writable && NEXT_STATUSES[o.status].length ? (
        <section class="actions" aria-label={t('order.actions')}>
          {NEXT_STATUSES[o.status].map((s) => (
            <Button key={s} variant={s === NEXT_STATUSES[o.status][0] ? 'primary' : undefined} disabled={busy} onClick={() => move(s)}>
              {t('order.moveTo', { status: t(`orderStatus.${s}` as Key) })}
            </Button>
          ))}
          <Button variant="danger" disabled={busy} onClick={() => setCancelling(true)}>
            {t('order.cancel')}
          </Button>
          {o.status !== 'draft' ? (
            <Button disabled={busy} onClick={receipt}>
              {t('order.printReceipt')}
            </Button>
          ) : null}
        </section>
      ) : writable && o.status === 'completed' ? (
        <section class="actions">
          <Button disabled={busy} onClick={receipt}>
            {t('order.printReceipt')}
          </Button>
        </section>
      ) : null}
      {can('payments:read') && o.status !== 'draft' ? <PaymentPanel order={o} onChange={() => void reload()} /> : null}
      <div class="columns">
        <OrderLines o={o} />
        <OrderFacts o={o} table={table} jobs={jobs} stationName={stationName} busy={busy} reprint={reprint} />
      </div>
      {/* kit: a Dialog, not a FormDialog: a confirmation of a cancel, with its reason (Back beside Cancel order, not Cancel beside Save) */}
      <Dialog title={t('order.cancelTitle', { n: o.order_number })} open={cancelling} onClose={() => setCancelling(false)}>
        <TextArea label={t('order.cancelReason')} value={reason} onInput={setReason} />
        <ErrorNote error={actError} />
        <div class="dialog-actions">
          <Button onClick={() => setCancelling(false)}>{t('common.back')}</Button>
          <Button variant="danger" disabled={busy} onClick={cancel}>
            {t('order.confirmCancel')}
          </Button>
        </div>
      </Dialog>
    </>
  );
}

function OrderLines({ o }: { o: DetailOrder }) {
  return (
    <section class="card">
      <h2>{t('order.lines')}</h2>
      {/* kit: stays a table of its own: a bill, lines then a footer of sums (tfoot), which DataTable has no place for */}
      <table class="data">
        <thead>
          <tr>
            <th scope="col">{t('order.qty')}</th>
            <th scope="col">{t('order.item')}</th>
            <th scope="col">{t('orders.status')}</th>
            <th scope="col" class="num">
              {t('orders.total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {o.items.map((l) => (
            <tr key={l.index} class={l.voided_at ? 'muted' : ''} data-line={l.id}>
              <td>{l.quantity}×</td>
              <td>
                <strong>{l.name}</strong>
                {l.modifiers.length ? <div class="muted">{l.modifiers.map((m) => m.name).join(', ')}</div> : null}
                {l.notes ? <div class="note">“{l.notes}”</div> : null}
                {l.comped ? (
                  <div class="muted">{t('pay.lineComp')}{l.discount_reason ? ` · ${l.discount_reason}` : ''}</div>
                ) : l.discount_amount && !l.voided_at ? (
                  <div class="muted">
                    −{money(l.discount_amount, o.currency)}
                    {l.discount_reason ? ` · ${l.discount_reason}` : ''}
                  </div>
                ) : null}
              </td>
              <td>{l.voided_at ? t('pay.lineVoided') : t(`lineStatus.${l.status}` as Key)}</td>
              {/* the line's net amount as the hub bills it: 0 when voided or comped */}
              <td class="num" data-testid="line-net">{money(l.net_amount, o.currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={3}>{t('order.subtotal')}</td>
            <td class="num">{money(o.subtotal, o.currency)}</td>
          </tr>
          {o.discount_amount ? (
            <tr>
              <td colSpan={3}>{t('order.discountsLine')}</td>
              <td class="num">−{money(o.discount_amount, o.currency)}</td>
            </tr>
          ) : null}
          {/* tax on top is a line of the sum; where prices include it, it is told after the total */}
          {o.prices_include_tax ? null : (
            <tr>
              <td colSpan={3}>{t('tax.onTop')}</td>
              <td class="num">{money(o.tax_amount, o.currency)}</td>
            </tr>
          )}
          {/* each as the hub stored it: the page adds no two amounts */}
          {o.tip_amount ? (
            <tr>
              <td colSpan={3}>{t('order.tip')}</td>
              <td class="num">{money(o.tip_amount, o.currency)}</td>
            </tr>
          ) : null}
          {o.delivery_fee ? (
            <tr>
              <td colSpan={3}>{t('order.deliveryFee')}</td>
              <td class="num">{money(o.delivery_fee, o.currency)}</td>
            </tr>
          ) : null}
          <tr class="total">
            <td colSpan={3}>{t('orders.total')}</td>
            <td class="num">{money(o.total, o.currency)}</td>
          </tr>
          {o.prices_include_tax ? (
            <tr class="tax-included">
              <td colSpan={3}>{t('tax.included')}</td>
              <td class="num">{money(o.tax_amount, o.currency)}</td>
            </tr>
          ) : null}
        </tfoot>
      </table>
      {o.notes ? <p class="note">{t('order.notes')}: “{o.notes}”</p> : null}
    </section>
  );
}

function OrderFacts({ o, table, jobs, stationName, busy, reprint }: { o: DetailOrder; table: number | null; jobs: PrintJobs; stationName: (key: string) => string; busy: boolean; reprint: (job: string) => void }) {
  return (
    <section class="card">
      <h2>{t('order.details')}</h2>
      <dl class="facts">
        <dt>{t('orders.type')}</dt>
        <dd>{t(`orderType.${o.type}` as Key)}</dd>
        {table ? (
          <>
            <dt>{t('orders.table')}</dt>
            <dd>{table}</dd>
          </>
        ) : null}
        <dt>{t('orders.customer')}</dt>
        <dd>{[o.customer.name, o.customer.phone, o.customer.email].filter(Boolean).join(' · ') || '—'}</dd>
        {o.delivery_address ? (
          <>
            <dt>{t('order.address')}</dt>
            <dd>{o.delivery_address}</dd>
          </>
        ) : null}
        <dt>{t('order.source')}</dt>
        {/* a source this page has no words for is shown as the API names it, never as a key */}
        <dd>{SOURCES.includes(o.source) ? t(`source.${o.source}` as Key) : o.source}</dd>
        <dt>{t('order.created')}</dt>
        <dd>{when(o.created)}</dd>
        <dt>{t('order.placed')}</dt>
        <dd>{when(o.placed_at)}</dd>
        {o.completed_at ? (
          <>
            <dt>{t('order.completed')}</dt>
            <dd>{when(o.completed_at)}</dd>
          </>
        ) : null}
        {o.cancelled_at ? (
          <>
            <dt>{t('order.cancelled')}</dt>
            <dd>
              {when(o.cancelled_at)}
              {o.cancel_reason ? ` — ${o.cancel_reason}` : ''}
            </dd>
          </>
        ) : null}
      </dl>
      <h2>{t('order.printJobs')}</h2>
      <JobList
        jobs={jobs}
        empty={t('order.noPrintJobs')}
        line={(j) => (
          <>
            {t(`printKind.${j.kind}` as Key)} {j.station ? `(${stationName(j.station)})` : ''} · <JobState state={j.state} /> {when(j.printed_at ?? j.created, 'time')}
          </>
        )}
        action={(j) =>
          can('printers:write') && j.kind !== 'test_page' ? (
            <Button disabled={busy} onClick={() => reprint(j.id)}>
              {t('order.reprint')}
            </Button>
          ) : null
        }
      />
    </section>
  );
}
