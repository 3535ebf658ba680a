/**
 * The second, plain way: every figure computed straight from the order rows with
 * Intl (not luxon, not the roll-ups), to compare with the reports exactly.
 */
export interface PlainOrder {
  id: string;
  status: string;
  livemode: number;
  type: string;
  total: number;
  placed_at: number | null;
  created: number;
  customer_id: string | null;
}
export interface PlainLine {
  order_id: string;
  menu_item_id: string;
  quantity: number;
  line_subtotal: number;
  /** a comp is the whole line */
  discount_amount?: number;
  voided_at?: number | null;
}

export function localOf(unix: number, zone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
      weekday: 'short',
    })
      .formatToParts(new Date(unix * 1000))
      .map((p) => [p.type, p.value]),
  );
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday);
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), weekday };
}

export const isSale = (o: PlainOrder) => o.livemode === 1 && o.status !== 'draft' && o.status !== 'cancelled';

export function plusDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export function days(start: string, end: string): string[] {
  const out = [];
  for (let d = start; d <= end; d = plusDays(d, 1)) out.push(d);
  return out;
}

/** ISO 8601 week label of a date, the textbook way (the Thursday of its week decides the year). */
export function isoWeek(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const dow = (d.getUTCDay() + 6) % 7; // Monday 0
  d.setUTCDate(d.getUTCDate() - dow + 3);
  const year = d.getUTCFullYear();
  const week = 1 + Math.floor((d.getTime() - Date.UTC(year, 0, 1)) / 86400000 / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

export function sales(orders: PlainOrder[], zone: string) {
  return orders.filter(isSale).map((o) => ({ ...o, ...localOf(o.placed_at ?? o.created, zone) }));
}

export function periodKey(day: string, groupBy: string) {
  return groupBy === 'day' ? day : groupBy === 'week' ? isoWeek(day) : day.slice(0, 7);
}

export function plainRevenue(orders: PlainOrder[], zone: string, start: string, end: string, groupBy: string) {
  const periods: string[] = [];
  for (const d of days(start, end)) if (!periods.includes(periodKey(d, groupBy))) periods.push(periodKey(d, groupBy));
  return periods.map((p) => {
    const inP = sales(orders, zone).filter((s) => s.day >= start && s.day <= end && periodKey(s.day, groupBy) === p);
    const revenue = inP.reduce((n, s) => n + s.total, 0);
    const by_type = { dine_in: 0, takeout: 0, delivery: 0 } as Record<string, number>;
    for (const s of inP) by_type[s.type]++;
    return { period: p, revenue, order_count: inP.length, avg_order_value: inP.length ? Math.round(revenue / inP.length) : 0, by_type };
  });
}

export function plainItems(orders: PlainOrder[], lines: PlainLine[], zone: string, start: string, end: string, names: Map<string, string>) {
  const ids = new Set(sales(orders, zone).filter((s) => s.day >= start && s.day <= end).map((s) => s.id));
  const acc = new Map<string, { id: string; name: string; quantity: number; revenue: number; orders: Set<string> }>();
  for (const l of lines) {
    // a voided line counts nowhere; a line counts what it cost after its own discount (a comp: 0)
    if (!ids.has(l.order_id) || (l.voided_at ?? null) !== null) continue;
    const a = acc.get(l.menu_item_id) ?? { id: l.menu_item_id, name: names.get(l.menu_item_id)!, quantity: 0, revenue: 0, orders: new Set() };
    a.quantity += l.quantity;
    a.revenue += l.line_subtotal - (l.discount_amount ?? 0);
    a.orders.add(l.order_id);
    acc.set(l.menu_item_id, a);
  }
  return [...acc.values()].map((a) => ({ ...a, orders: a.orders.size }));
}

/** Ordinary least squares, written around the means this time. */
export function plainFit(ys: number[]) {
  const n = ys.length;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0, den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  const slope = num / den;
  const intercept = my - slope * mx;
  let ssTot = 0, ssRes = 0;
  ys.forEach((y, x) => {
    ssTot += (y - my) ** 2;
    ssRes += (y - intercept - slope * x) ** 2;
  });
  return { slope, intercept, mean: my, r2: ssTot === 0 ? 1 : Math.max(0, 1 - ssRes / ssTot) };
}

export function plainChange(cur: number, prev: number): string {
  if (prev === 0) return cur === 0 ? '0.0' : '100.0';
  const v = Math.round((Math.abs(cur - prev) * 1000) / prev) / 10;
  return `${cur < prev && v !== 0 ? '-' : ''}${v.toFixed(1)}`;
}
