import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { get } from '../lib/api.ts';
import { minorDigits, money, number, todayAtRestaurant } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { Button, Empty, ErrorNote, Field, Loading, PageHeader, SelectField, useLoad } from '../ui/kit.tsx';

interface Range {
  start_date: string;
  end_date: string;
}

const range = (days: number): Range => ({ start_date: todayAtRestaurant(-(days - 1)), end_date: todayAtRestaurant() });

function periodStart(p: string): number {
  const week = /^(\d{4})-W(\d{2})$/.exec(p);
  if (week) {
    // ISO week 1 holds the year's first Thursday
    const jan4 = Date.UTC(Number(week[1]), 0, 4);
    const monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * 86_400_000;
    return (monday + (Number(week[2]) - 1) * 7 * 86_400_000) / 1000;
  }
  return Date.parse(/^\d{4}-\d{2}$/.test(p) ? `${p}-01T12:00:00Z` : `${p}T12:00:00Z`) / 1000;
}

/** A line chart of one or two series over dates, drawn with uPlot (no network, canvas only). */
function LineChart({ label, dates, series }: { label: string; dates: string[]; series: { name: string; values: number[]; color: string }[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !dates.length) return;
    // days are YYYY-MM-DD, weeks YYYY-Www, months YYYY-MM: each becomes the moment it starts
    const xs = dates.map(periodStart);
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 240,
        series: [{}, ...series.map((s) => ({ label: s.name, stroke: s.color, width: 2, fill: `${s.color}22` }))],
        axes: [{}, { size: 70 }],
        scales: { x: { time: true } },
        legend: { show: true },
      },
      [xs, ...series.map((s) => s.values)],
      el,
    );
    const resize = () => plot.setSize({ width: Math.max(280, el.clientWidth), height: 240 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [dates, series]);
  return <div class="chart" ref={ref} role="img" aria-label={label} />;
}

export function AnalyticsPage() {
  const [r, setR] = useState<Range>(range(30));
  const [groupBy, setGroupBy] = useState('day');
  const [data, error] = useLoad(async () => {
    const q = { ...r };
    const [revenue, orders, items, abc, peak, reservations, labor, comparison, forecast] = await Promise.all([
      get('/v1/analytics/revenue', { ...q, group_by: groupBy }),
      get('/v1/analytics/orders', { ...q, group_by: groupBy }),
      get('/v1/analytics/menu_items', q),
      get('/v1/analytics/menu_abc', q),
      get('/v1/analytics/peak_hours', q),
      get('/v1/analytics/reservations', q),
      get('/v1/analytics/labor', q),
      get('/v1/analytics/period_comparison', q),
      get('/v1/analytics/sales_forecast', { days: 7 }),
    ]);
    return { revenue, orders, items, abc, peak, reservations, labor, comparison, forecast };
  }, [r.start_date, r.end_date, groupBy]);
  const unit = 10 ** minorDigits();

  return (
    <>
      <PageHeader title={t('analytics.title')} />
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label={t('analytics.range')}>
        <Field label={t('analytics.from')} type="date" value={r.start_date} max={r.end_date} onInput={(e) => setR({ ...r, start_date: (e.target as HTMLInputElement).value })} />
        <Field label={t('analytics.to')} type="date" value={r.end_date} min={r.start_date} onInput={(e) => setR({ ...r, end_date: (e.target as HTMLInputElement).value })} />
        <SelectField
          label={t('analytics.groupBy')}
          value={groupBy}
          onChange={setGroupBy}
          options={(['day', 'week', 'month'] as const).map((g) => ({ value: g, label: t(`analytics.by.${g}` as Key) }))}
        />
        {[7, 30, 90].map((d) => (
          <Button key={d} onClick={() => setR(range(d))}>
            {t('analytics.lastDays', { n: d })}
          </Button>
        ))}
      </form>
      <ErrorNote error={error} />
      {!data ? (
        <Loading />
      ) : (
        <>
          <section class="stats" aria-label={t('analytics.comparison')}>
            {(['revenue', 'orders', 'avgOrderValue', 'customers', 'reservations'] as const).map((k) => (
              <div class="stat" key={k}>
                <span class="stat-value">{k === 'revenue' || k === 'avgOrderValue' ? money(data.comparison.current[k]) : number(data.comparison.current[k])}</span>
                <span class="stat-label">{t(`analytics.cmp.${k}` as Key)}</span>
                <span class={`stat-change ${String(data.comparison.changes[k]).startsWith('-') ? 'down' : 'up'}`}>{t('analytics.vsPrevious', { n: data.comparison.changes[k] })}</span>
              </div>
            ))}
          </section>
          <div class="columns">
            <section class="card">
              <h2>{t('analytics.revenue')}</h2>
              <LineChart
                label={t('analytics.revenue')}
                dates={data.revenue.data.map((d: any) => d.period)}
                series={[{ name: t('analytics.revenue'), values: data.revenue.data.map((d: any) => d.revenue / unit), color: '#1f6f50' }]}
              />
            </section>
            <section class="card">
              <h2>{t('analytics.orders')}</h2>
              <LineChart
                label={t('analytics.orders')}
                dates={data.orders.data.map((d: any) => d.period)}
                series={[
                  { name: t('orderType.dine_in'), values: data.orders.data.map((d: any) => d.by_type.dine_in), color: '#2457a6' },
                  { name: t('orderType.takeout'), values: data.orders.data.map((d: any) => d.by_type.takeout), color: '#b5531c' },
                  { name: t('orderType.delivery'), values: data.orders.data.map((d: any) => d.by_type.delivery), color: '#6b3fa0' },
                ]}
              />
            </section>
          </div>
          <section class="card">
            <h2>{t('analytics.peak')}</h2>
            <PeakHours peak={data.peak} />
          </section>
          <div class="columns">
            <section class="card">
              <h2>{t('analytics.forecast')}</h2>
              <p class="muted">{t('analytics.trend', { trend: data.forecast.trend })}</p>
              <table class="data">
                <thead>
                  <tr>
                    <th scope="col">{t('orders.date')}</th>
                    <th scope="col" class="num">
                      {t('analytics.predicted')}
                    </th>
                    <th scope="col" class="num">
                      {t('analytics.confidence')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.forecast.forecast.map((f: any) => (
                    <tr key={f.date}>
                      <td>{f.date}</td>
                      <td class="num">{money(f.predictedRevenue)}</td>
                      <td class="num">{number(f.confidence * 100)} %</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section class="card">
              <h2>{t('analytics.reservations')}</h2>
              {!data.reservations.by_status.length ? (
                <Empty>{t('reservations.none')}</Empty>
              ) : (
                <table class="data">
                  <tbody>
                    {data.reservations.by_status.map((s: any) => (
                      <tr key={s.status}>
                        <th scope="row">{t(`resStatus.${s.status}` as Key)}</th>
                        <td class="num">{s.count}</td>
                        <td class="num">{t('analytics.avgParty', { n: number(s.avg_party_size, 1) })}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </div>
          <div class="columns">
            <section class="card">
              <h2>{t('analytics.abc')}</h2>
              <table class="data">
                <thead>
                  <tr>
                    <th scope="col">{t('order.item')}</th>
                    <th scope="col">{t('analytics.class')}</th>
                    <th scope="col" class="num">
                      {t('analytics.sold')}
                    </th>
                    <th scope="col" class="num">
                      {t('analytics.revenue')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.abc.items.slice(0, 20).map((i: any) => (
                    <tr key={i.menu_item}>
                      <td>{i.name}</td>
                      <td>{i.classification}</td>
                      <td class="num">{i.quantity_sold}</td>
                      <td class="num">
                        {money(i.total_revenue)} ({i.revenue_percent} %)
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section class="card">
              <h2>{t('analytics.top')}</h2>
              <table class="data">
                <tbody>
                  {data.items.data.slice(0, 10).map((i: any) => (
                    <tr key={i.name}>
                      <th scope="row">{i.name}</th>
                      <td class="num">{i.total_quantity}×</td>
                      <td class="num">{money(i.total_revenue)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <h2>{t('analytics.labor')}</h2>
              {!data.labor.data.length ? (
                <Empty>{t('analytics.noShifts')}</Empty>
              ) : (
                <table class="data">
                  <tbody>
                    {data.labor.data.map((l: any) => (
                      <tr key={l.user}>
                        <th scope="row">{l.user_name}</th>
                        <td class="num">{number(l.total_hours, 1)} h</td>
                        <td class="num">{t('analytics.shifts', { n: l.shifts })}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </div>
        </>
      )}
    </>
  );
}

/** Weekday × hour, each cell shaded by its share of the busiest hour. */
function PeakHours({ peak }: { peak: { days: string[]; hours: string[]; data: { orders: number; revenue: number }[][] } }) {
  const max = Math.max(1, ...peak.data.flat().map((c) => c.orders));
  const hours = peak.hours.map((h, i) => ({ h, i })).filter(({ i }) => peak.data.some((row) => row[i].orders > 0));
  if (!hours.length) return <Empty>{t('analytics.noOrders')}</Empty>;
  return (
    <div class="table-wrap">
      <table class="heat">
        <thead>
          <tr>
            <th scope="col">
              <span class="sr-only">{t('analytics.day')}</span>
            </th>
            {hours.map(({ h }) => (
              <th scope="col" key={h}>
                {h.slice(0, 2)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {peak.days.map((d, di) => (
            <tr key={d}>
              <th scope="row">{t(`day.${d.toLowerCase()}` as Key)}</th>
              {hours.map(({ h, i }) => {
                const n = peak.data[di][i].orders;
                const level = n / max;
                return (
                  <td key={h} style={{ background: `rgba(31, 111, 80, ${0.08 + level * 0.85})`, color: level > 0.5 ? '#fff' : '#1b1b1b' }} title={`${d} ${h}: ${n}`}>
                    {n || ''}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
