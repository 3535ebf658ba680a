import { addDays, eachDay, today } from './calendar.ts';
import type { ReportContext } from './context.ts';
import { roundDiv } from '../../model/sales-rules.ts';
import { dailyRevenue } from './sales.ts';

export const FORECAST_HISTORY_DAYS = 30;
/** |slope| under 1 % of the average day per day reads as `stable`. */
export const TREND_THRESHOLD = 0.01;

export interface Fit {
  slope: number;
  intercept: number;
  /** coefficient of determination, 0..1; 1 when every day had the same revenue */
  r2: number;
}

/** Ordinary least squares of y over x = 0, 1, 2, … */
export function leastSquares(ys: number[]): Fit {
  const n = ys.length;
  let sx = 0, sy = 0, sxy = 0, sxx = 0;
  ys.forEach((y, x) => {
    sx += x;
    sy += y;
    sxy += x * y;
    sxx += x * x;
  });
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const intercept = (sy - slope * sx) / n;
  const mean = sy / n;
  let ssTot = 0, ssRes = 0;
  ys.forEach((y, x) => {
    ssTot += (y - mean) ** 2;
    ssRes += (y - (intercept + slope * x)) ** 2;
  });
  const r2 = ssTot === 0 ? 1 : Math.min(1, Math.max(0, 1 - ssRes / ssTot));
  return { slope, intercept, r2 };
}

export function trendOf(fit: Fit, mean: number): 'increasing' | 'decreasing' | 'stable' {
  if (mean === 0) return 'stable';
  const relative = fit.slope / mean;
  return relative > TREND_THRESHOLD ? 'increasing' : relative < -TREND_THRESHOLD ? 'decreasing' : 'stable';
}

/**
 * A straight line through the daily revenue of the 30 full days before today (days without
 * sales are 0), extended over `days` days starting today.
 */
export async function salesForecastReport(ctx: ReportContext, days: number) {
  const first = today(ctx.nowMs, ctx.zone);
  const range = { start: addDays(first, -FORECAST_HISTORY_DAYS), end: addDays(first, -1) };
  const byDay = await dailyRevenue(ctx, range);
  const historical = eachDay(range.start, range.end).map((date) => ({ date, revenue: byDay.get(date) ?? 0 }));
  const ys = historical.map((h) => h.revenue);
  const fit = leastSquares(ys);
  const total = ys.reduce((a, b) => a + b, 0);
  const confidence = Math.round(fit.r2 * 100) / 100;
  return {
    object: 'analytics.sales_forecast' as const,
    historical,
    forecast: Array.from({ length: days }, (_, i) => ({
      date: addDays(first, i),
      predictedRevenue: Math.max(0, Math.round(fit.intercept + fit.slope * (FORECAST_HISTORY_DAYS + i))),
      confidence,
    })),
    trend: trendOf(fit, total / FORECAST_HISTORY_DAYS),
    avgDailyRevenue: roundDiv(total, FORECAST_HISTORY_DAYS),
  };
}
