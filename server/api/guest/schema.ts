import { z } from 'zod';
import { normalizePhone } from '../../domain/customers/match-customer.ts';
import { f } from '../../model/fields.ts';
import { WAITLIST_STATUSES } from '../../model/waitlist.ts';
import { listParams, q } from '../../http/query.ts';

/** A real phone number, as normalizePhone holds it (without a country code it is read as German). */
const phone = () =>
  z
    .string()
    .trim()
    .max(40, 'must be at most 40 characters')
    .refine((v) => normalizePhone(v) !== null, 'is not a valid phone number');

/** A language tag (BCP 47 shape); one not offered means English, as for the contact form. */
const lang = () => z.string().trim().regex(/^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$/, 'must be a language tag such as de or de-AT').max(35, 'must be at most 35 characters');

const email = () => z.string().trim().max(254, 'must be at most 254 characters').pipe(z.email('is not a valid email address'));

/** A solved proof-of-work challenge from /public/captcha (the altcha payload, base64): the guest forms' bot check. */
const captchaToken = () => z.string().min(1, 'must not be empty').max(4000);
/** The guest writes' bot check: needed only when asked (403 captcha_required) or when the venue asks it always. */
const askedCaptchaToken = () =>
  captchaToken()
    .nullish()
    .describe('a solved bot check from /public/captcha; needed only after a 403 captcha_required (past a rate, or when the venue asks it always)');

export const JoinWaitlist = z.object({
  guestName: f.name(),
  // the venue's cap (WAITLIST_PARTY_TOO_LARGE) is checked against the settings; this only refuses nonsense
  partySize: f.int(1, 100_000),
  phone: phone().nullish(),
  email: email().nullish(),
  consent: z.boolean().refine((v) => v, 'must be true: the guest has to agree to be contacted'),
  // the language of the notice; without it, the browser's Accept-Language decides
  lang: lang().optional(),
  captchaToken: askedCaptchaToken(),
});

export const AddWalkIn = z.object({
  guest_name: f.name(),
  party_size: f.int(1, 1000),
  phone: phone().nullish(),
  email: email().nullish(),
  consent: z.boolean().optional(),
  notes: f.text(500).nullish(),
  lang: lang().optional(),
});

export const NotifyEntry = z.object({ channel: z.enum(['email', 'sms']).optional() });

export const SeatEntry = z.object({
  table: f.id().nullish().describe('the table to seat the party at (tbl_ id): active, fitting the party, free now and for a sitting'),
});

export const ListWaitlist = z.object({
  ...listParams(),
  status: z.enum(WAITLIST_STATUSES).optional(),
  source: z.enum(['online', 'walk_in']).optional(),
});

export const ListMessages = z.object({
  ...listParams(),
  status: z.enum(['pending', 'sent', 'stored']).optional(),
});

export const SubmitFeedback = z.object({
  rating: f.int(1, 5),
  comment: f.text(2000).nullish(),
  orderId: f.id().nullish(),
  captchaToken: askedCaptchaToken(),
});

export const ListFeedback = z.object({ ...listParams(), rating: q.int({ min: 1, max: 5 }).optional() });

export const SubmitContact = z.object({
  name: f.name(),
  email: email(),
  restaurantName: f.name().nullish(),
  message: z.string().trim().min(1, 'must not be empty').max(5000, 'must be at most 5000 characters'),
  captchaToken: captchaToken(),
  lang: z.string().max(35).nullish(),
});

export const SlugParam = z.object({ slug: z.string().min(1).max(200) });
export const TokenParam = z.object({ token: z.string().min(1).max(200) });
