import { issueChallenge, redeemChallenge } from '../../domain/contact/captcha.ts';
import { queueContactMail } from '../../domain/contact/contact-mail.ts';
import { guestOf } from '../../features/guest.ts';
import { defineRoute, type RouteSpec } from '../../http/route.ts';
import { guestIp, limitIp } from './guard.ts';
import { z } from 'zod';
import { named } from '../../model/schemas.ts';
import { SubmitContact } from './schema.ts';

/** An altcha challenge (what the widget solves). */
const CaptchaChallengeSchema = named(
  'CaptchaChallenge',
  z.object({
    algorithm: z.string(),
    challenge: z.string(),
    maxnumber: z.number().int().optional(),
    maxNumber: z.number().int().optional(),
    salt: z.string(),
    signature: z.string(),
    expires: z.number().int().describe('Unix seconds'),
  }),
);

const ContactRequestSchema = named(
  'ContactRequest',
  z.object({ object: z.literal('contact_request'), id: z.string(), status: z.literal('queued'), lang: z.string() }),
);

const tag = 'Guest: platform';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/public/captcha',
    response: CaptchaChallengeSchema,
    preflight: limitIp,
    summary: 'A proof-of-work challenge (altcha) for the contact form, waitlist joins and feedback, bound to the caller IP, valid 10 minutes, usable once',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => {
      const ip = guestIp(c);
      const guest = guestOf(c.services);
      return issueChallenge(c.db, await guest.captchaKey(), ip, c.now, guest.captchaMaxNumber);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/contact',
    errors: ['captcha_invalid'],
    response: ContactRequestSchema,
    preflight: limitIp,
    summary: 'Send the contact form; the bot check is redeemed before any mail is built; the mail is queued and retried until it goes out',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    body: SubmitContact,
    status: 202,
    handler: async (c) => {
      const ip = guestIp(c);
      const guest = guestOf(c.services);
      // read before the transaction: on the hub's one connection a read from inside would wait for it
      const key = await guest.captchaKey();
      const queued = await c.services.tx.run(async (trx) => {
        await redeemChallenge(trx, key, c.body.captchaToken, ip, c.now);
        return queueContactMail(trx, c.now, c.services.config.mail.contactTo, c.body);
      });
      void guest.dispatcher.wake();
      return { object: 'contact_request' as const, id: queued.id, status: 'queued' as const, lang: queued.lang };
    },
  }),
];
