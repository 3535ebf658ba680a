import { z } from 'zod';
import { LANGUAGES, settingsShape } from '../../model/settings.ts';
import { PASSWORD_MIN } from '../../domain/staff/sign-in.ts';
import { f } from '../../model/fields.ts';

const email = z.string().trim().max(254).pipe(z.email('must be an email address'));
export const password = z
  .string()
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(200, 'must be at most 200 characters');

export const SignIn = z.object({
  email: z.string().trim().min(1).max(254),
  // any length is checked (an old password may be shorter than today's minimum)
  password: z.string().min(1).max(200),
  restaurant: z.string().min(1).max(64).optional(),
});

export const Setup = z.object({
  restaurant_name: f.name(),
  timezone: settingsShape.timezone,
  currency: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(settingsShape.currency),
  language: z.enum(LANGUAGES).optional(),
  /** omitted: what the currency suggests (VAT-inclusive except USD and CAD) */
  prices_include_tax: z.boolean().optional(),
  /** omitted: made from the restaurant's name */
  slug: z.string().trim().toLowerCase().min(1).max(50).optional(),
  /** omitted: 19 %, or what the restaurant already had */
  default_tax_rate: settingsShape.default_tax_rate.optional(),
  owner_name: f.name(),
  owner_email: email,
  owner_password: password,
  setup_code: z.string().max(40).optional(),
});

export const UpdateOwnSession = z.object({ language: z.enum(LANGUAGES).nullable() }).partial();

export const SetPassword = z.object({ password });
