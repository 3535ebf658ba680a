import { z } from 'zod';
import { q } from '../../http/query.ts';

export const RangeQuery = z.object({ start_date: q.date().optional(), end_date: q.date().optional() });

export const GroupedRangeQuery = RangeQuery.extend({ group_by: q.enum(['day', 'week', 'month']).optional() });

export const ForecastQuery = z.object({ days: q.int({ min: 1, max: 30 }).optional() });
