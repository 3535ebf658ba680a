import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { GET } from '../lib/client.ts';
import { calendarDate, locale, minorDigits, money, number, percent, todayAtRestaurant } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { Button, Empty, ErrorNote, Field, Loading, PageHeader, SelectField, useLoad } from '../ui/kit.tsx';
import { DataTable } from '../ui/data-table.tsx';

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

/** A period's name in the venue's language: a day, "week of 3 Nov 2026", or "November 2026" (never a time of day). */
function periodLabel(p: string): string {
  if (/^\d{4}-W\d{2}$/.test(p)) return t('analytics.weekOf', { date: calendarDate(new Date(periodStart(p) * 1000).toISOString()) });
  if (/^\d{4}-\d{2}$/.test(p)) return new Intl.DateTimeFormat(locale.value, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(periodStart(p) * 1000));
  return calendarDate(p);
}

/**
 * Against the previous period, said so a person can use it: from nothing it is "new" (not
 * "+100 %"), from a tiny base a multiple ("38 × as much", not "+3,700 %"), else a signed
 * percentage in the venue's language.
 */
export function changeText(current: number, previous: number, change: string): { text: string; tone: 'up' | 'down' | 'flat' } {
  if (previous === 0) return current === 0 ? { text: t('analytics.noChange'), tone: 'flat' } : { text: t('analytics.new'), tone: 'up' };
  const pct = Number(change);
  if (pct >= 500) return { text: t('analytics.times', { n: number(current / previous, current / previous < 10 ? 1 : 0) }), tone: 'up' };
  return { text: t('analytics.change', { n: percent(pct, true) }), tone: pct < 0 ? 'down' : pct > 0 ? 'up' : 'flat' };
}

/** The heat map's steps: each background with the text colour that reads on it at 4.5:1 or better. */
const HEAT = [
  { bg: '#e6f2ec', fg: '#1b1b1b' },
  { bg: '#bddfcd', fg: '#1b1b1b' },
  { bg: '#86c4a5', fg: '#1b1b1b' },
  { bg: '#1f6f50', fg: '#ffffff' },
] as const;

/** A line chart of one or two series over dates, drawn with uPlot (no network, canvas only). */
/** Steps a count's axis may take: whole numbers only (a day of 2 orders ticks 0, 1, 2, never 0.5). */
const WHOLE_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 50_000, 100_000];

function LineChart({ label, dates, series, format, counts }: { label: string; dates: string[]; series: { name: string; values: number[]; color: string }[]; format: (v: number) => string; counts?: boolean }) {
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
        // the legend under the chart is its tooltip: the period by name, amounts as money or counts
        series: [
          { label: t('analytics.period'), value: (_u: uPlot, v: number | null) => (v === null ? '—' : periodLabel(dates[xs.indexOf(v)] ?? '')) },
          ...series.map((s) => ({ label: s.name, stroke: s.color, width: 2, fill: `${s.color}22`, value: (_u: uPlot, v: number | null) => (v === null ? '—' : format(v)) })),
        ],
        axes: [
          { values: (_u: uPlot, splits: number[]) => splits.map((x) => calendarDate(new Date(x * 1000).toISOString(), 'short')) },
          {
            size: 70,
            ...(counts ? { incrs: WHOLE_STEPS } : {}),
            values: (_u: uPlot, splits: number[]) => {
              const labels = splits.map((v) => format(v));
              // the canvas's labels, readable by a test or a screen reader's inspector
              el.dataset.yTicks = labels.join('|');
              return labels;
            },
          },
        ],
        scales: { x: { time: true }, ...(counts ? { y: { range: (_u: uPlot, _min: number, max: number): [number, number] => [0, Math.max(1, Math.ceil(max))] } } : {}) },
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

type GroupBy = 'day' | 'week' | 'month';

/** The analytics of a date range: every report at once, read again when the range or grouping changes. */
function useAnalyticsData() {
  const [r, setR] = useState<Range>(range(30));
  const [groupBy, setGroupBy] = useState<GroupBy>('day');
  const [data, error] = useLoad(async () => {
    const q = { ...r };
    const [revenue, orders, items, abc, peak, reservations, labor, comparison, forecast] = await Promise.all([
      GET('/v1/analytics/revenue', { query: { ...q, group_by: groupBy } }),
      GET('/v1/analytics/orders', { query: { ...q, group_by: groupBy } }),
      GET('/v1/analytics/menu_items', { query: q }),
      GET('/v1/analytics/menu_abc', { query: q }),
      GET('/v1/analytics/peak_hours', { query: q }),
      GET('/v1/analytics/reservations', { query: q }),
      GET('/v1/analytics/labor', { query: q }),
      GET('/v1/analytics/period_comparison', { query: q }),
      GET('/v1/analytics/sales_forecast', { query: { days: 7 } }),
    ]);
    return { revenue, orders, items, abc, peak, reservations, labor, comparison, forecast };
  }, [r.start_date, r.end_date, groupBy]);
  return { r, setR, groupBy, setGroupBy, data, error };
}

type Analytics = NonNullable<ReturnType<typeof useAnalyticsData>['data']>;

export function AnalyticsPage() {
  const { r, setR, groupBy, setGroupBy, data, error } = useAnalyticsData();
  return (
    <>
      <PageHeader title={t('analytics.title')} />
      <AnalyticsFilters r={r} setR={setR} groupBy={groupBy} setGroupBy={setGroupBy} />
      <ErrorNote error={error} />
      {!data ? (
        <Loading />
      ) : (
        <>
          <ComparisonStats data={data} />
          <TrendCharts data={data} />
          <section class="card">
            <h2>{t('analytics.peak')}</h2>
            <PeakHours peak={data.peak} />
          </section>
          <ForecastAndBookings data={data} />
          <MenuTables data={data} />
          {/* a card of its own: under Top items' table it ran over the next card on a narrow screen */}
          <section class="card">
              <h2>{t('analytics.labor')}</h2>
              {!data.labor.data.length ? (
                <Empty>{t('analytics.noShifts')}</Empty>
              ) : (
                <table class="data">
                  {/* kit: stays a table of its own: figures named by a row heading, no columns to head (DataTable heads columns) */}
                  <tbody>
                    {data.labor.data.map((l) => (
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
        </>
      )}
    </>
  );
}

function AnalyticsFilters({ r, setR, groupBy, setGroupBy }: { r: Range; setR: (r: Range) => void; groupBy: GroupBy; setGroupBy: (g: GroupBy) => void }) {
  return (
    <form class="filters dated" onSubmit={(e) => e.preventDefault()} aria-label={t('analytics.range')}>
      {/* The native date field keeps its calendar and keyboard, but writes the date as the
          browser's language does (11/02/2026 on an American PC): under it, the date in the
          venue's language, written out, so nobody reads the month for the day. */}
      <Field
        label={t('analytics.from')}
        type="date"
        value={r.start_date}
        max={r.end_date}
        hint={r.start_date ? calendarDate(r.start_date, 'long') : undefined}
        onInput={(e) => setR({ ...r, start_date: (e.target as HTMLInputElement).value })}
      />
      <Field
        label={t('analytics.to')}
        type="date"
        value={r.end_date}
        min={r.start_date}
        hint={r.end_date ? calendarDate(r.end_date, 'long') : undefined}
        onInput={(e) => setR({ ...r, end_date: (e.target as HTMLInputElement).value })}
      />
      <SelectField
        label={t('analytics.groupBy')}
        value={groupBy}
        onChange={(v) => setGroupBy(v as GroupBy)}
        options={(['day', 'week', 'month'] as const).map((g) => ({ value: g, label: t(`analytics.by.${g}` as Key) }))}
      />
      {[7, 30, 90].map((d) => (
        <Button key={d} onClick={() => setR(range(d))}>
          {t('analytics.lastDays', { n: d })}
        </Button>
      ))}
    </form>
  );
}

function ComparisonStats({ data }: { data: Analytics }) {
  return (
    <section class="stats" aria-label={t('analytics.comparison')}>
      {(['revenue', 'orders', 'avgOrderValue', 'customers', 'reservations'] as const).map((k) => {
        const change = changeText(data.comparison.current[k], data.comparison.previous[k], data.comparison.changes[k]);
        return (
          <div class="stat" key={k}>
            <span class="stat-value">{k === 'revenue' || k === 'avgOrderValue' ? money(data.comparison.current[k]) : number(data.comparison.current[k])}</span>
            <span class="stat-label">{t(`analytics.cmp.${k}` as Key)}</span>
            <span class={`stat-change ${change.tone}`}>{change.text}</span>
          </div>
        );
      })}
    </section>
  );
}

function TrendCharts({ data }: { data: Analytics }) {
  const unit = 10 ** minorDigits();
  return (
    <div class="columns">
      <section class="card">
        <h2>{t('analytics.revenue')}</h2>
        <LineChart
          label={t('analytics.revenue')}
          dates={data.revenue.data.map((d) => d.period)}
          series={[{ name: t('analytics.revenue'), values: data.revenue.data.map((d) => d.revenue / unit), color: '#1f6f50' }]}
          format={(v) => money(Math.round(v * unit))}
        />
      </section>
      <section class="card">
        <h2>{t('analytics.orders')}</h2>
        <LineChart
          label={t('analytics.orders')}
          dates={data.orders.data.map((d) => d.period)}
          series={[
            { name: t('orderType.dine_in'), values: data.orders.data.map((d) => d.by_type.dine_in), color: '#2457a6' },
            { name: t('orderType.takeout'), values: data.orders.data.map((d) => d.by_type.takeout), color: '#b5531c' },
            { name: t('orderType.delivery'), values: data.orders.data.map((d) => d.by_type.delivery), color: '#6b3fa0' },
          ]}
          format={(v) => number(v)}
          counts
        />
      </section>
    </div>
  );
}

function ForecastAndBookings({ data }: { data: Analytics }) {
  return (
    <div class="columns">
      <section class="card">
        <h2>{t('analytics.forecast')}</h2>
        <p class="muted">{t('analytics.trend', { trend: t(`analytics.trend.${data.forecast.trend}` as Key) })}</p>
        <p class="hint" id="confidence-hint">
          {t('analytics.confidenceHint')}
        </p>
        <DataTable
          rows={data.forecast.forecast}
          rowKey={(f) => f.date}
          describedBy="confidence-hint"
          columns={[
            { label: t('orders.date'), cell: (f) => calendarDate(f.date, 'weekday') },
            { label: t('analytics.predicted'), num: true, cell: (f) => money(f.predictedRevenue) },
            { label: t('analytics.confidence'), num: true, cell: (f) => percent(f.confidence * 100) },
          ]}
        />
      </section>
      <section class="card">
        <h2>{t('analytics.reservations')}</h2>
        {!data.reservations.by_status.length ? (
          <Empty>{t('reservations.none')}</Empty>
        ) : (
          <table class="data">
            {/* kit: stays a table of its own: figures named by a row heading, no columns to head (DataTable heads columns) */}
            <tbody>
              {data.reservations.by_status.map((s) => (
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
  );
}

function MenuTables({ data }: { data: Analytics }) {
  return (
    <div class="columns">
      <section class="card">
        <h2>{t('analytics.abc')}</h2>
        <DataTable
          rows={data.abc.items.slice(0, 20)}
          rowKey={(i) => i.menu_item}
          columns={[
            { label: t('order.item'), cell: (i) => i.name },
            { label: t('analytics.class'), cell: (i) => i.classification },
            { label: t('analytics.sold'), num: true, cell: (i) => i.quantity_sold },
            { label: t('analytics.revenue'), num: true, cell: (i) => `${money(i.total_revenue)} (${percent(Number(i.revenue_percent))})` },
          ]}
        />
      </section>
      <section class="card">
        <h2>{t('analytics.top')}</h2>
        <table class="data">
          {/* kit: stays a table of its own: figures named by a row heading, no columns to head (DataTable heads columns) */}
          <tbody>
            {data.items.data.slice(0, 10).map((i) => (
              <tr key={i.name}>
                <th scope="row">{i.name}</th>
                <td class="num">{i.total_quantity}×</td>
                <td class="num">{money(i.total_revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** Weekday × hour, each cell shaded by its share of the busiest hour. */
function PeakHours({ peak }: { peak: { days: string[]; hours: string[]; data: { orders: number; revenue: number }[][] } }) {
  const max = Math.max(1, ...peak.data.flat().map((c) => c.orders));
  const hours = peak.hours.map((h, i) => ({ h, i })).filter(({ i }) => peak.data.some((row) => row[i].orders > 0));
  if (!hours.length) return <Empty>{t('analytics.noOrders')}</Empty>;
  return (
    <div class="table-wrap">
      {/* kit: stays a table of its own: a heat map, weekday × hour, cells shaded by share */}
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
                // four steps, each with a text colour chosen for it (a smooth shade left the middle unreadable)
                const step = n === 0 ? null : HEAT[Math.min(HEAT.length - 1, Math.floor((n / max) * HEAT.length - 1e-9))]!;
                return (
                  <td key={h} style={step ? { background: step.bg, color: step.fg } : undefined} title={`${t(`day.${d.toLowerCase()}` as Key)} ${h}: ${n}`}>
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
