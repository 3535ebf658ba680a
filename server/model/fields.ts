import { z } from 'zod';
import { WEEKDAYS } from './weekdays.ts';

/** Field types shared by request bodies, so every route refuses the same bad input the same way. */
export const f = {
  name: () => z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  text: (max = 2000) => z.string().max(max, `must be at most ${max} characters`),
  /** money in the smallest currency unit: a whole, non-negative number */
  money: () =>
    z
      .number({ message: 'must be an integer amount in the smallest currency unit' })
      .int('must be an integer amount in the smallest currency unit')
      .min(0, 'must not be negative')
      .max(1_000_000_000, 'is too large'),
  taxRate: () => z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1'),
  int: (min: number, max: number) => z.number().int('must be an integer').min(min).max(max),
  /** a public web address: http or https only (never javascript:, file:, data:) */
  url: () =>
    z
      .string()
      .max(2000)
      .url()
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL'),
  hhmm: () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM (00:00–23:59)'),
  tags: () => z.array(z.string().trim().min(1).max(50)).max(50),
  id: () => z.string().min(1).max(64),
  weekday: () => z.enum(WEEKDAYS),
  translations: () =>
    z.record(
      z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'keys are language codes like de or pt-BR'),
      z.object({ name: z.string().max(200).optional(), description: z.string().max(2000).optional() }).strict(),
    ),
};

