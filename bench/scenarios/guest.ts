import { solveChallenge } from 'altcha-lib/v1';
import type { BenchContext, BenchScenario } from '../scenario.ts';

const ALL_DAY = { open: '00:00', close: '00:00' }; // close at open: runs through to the next midnight
const EVERY_DAY = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [ALL_DAY]]));

/** Opens the waitlist around the clock and puts 30 parties in the queue; returns the slug and one guest token. */
async function queue(ctx: BenchContext): Promise<{ slug: string; token: string }> {
  const settings = await ctx.api.patch('/v1/settings', { opening_hours: EVERY_DAY, closed_dates: [], waitlist: { enabled: true, max_party_size: 8 } });
  const slug: string = settings.body.slug;
  for (let i = 0; i < 29; i++) await ctx.api.post('/v1/waitlist', { guest_name: `Bench party ${i}`, party_size: 2 + (i % 4) });
  // the bot check, solved as the join page does
  const c = (await ctx.api.get('/public/captcha', { key: null })).body;
  const solved = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  const captchaToken = Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solved?.number, salt: c.salt, signature: c.signature })).toString('base64');
  const joined = await ctx.api.post(`/public/restaurants/${slug}/waitlist/join`, {
    captchaToken,
    guestName: 'Bench guest',
    partySize: 2,
    email: `bench-${Date.now()}@example.org`,
    consent: true,
  }, { key: null });
  if (joined.status !== 201) throw new Error(`join failed: ${JSON.stringify(joined.body)} (guest rate limit must be off for benchmarks)`);
  return { slug, token: joined.body.token };
}

/** Guest pages are what a crowd of phones at the door hits. Needs config.guestRateLimit = false. */
export const scenarios: BenchScenario[] = [
  {
    name: 'GET /public/restaurants/:slug/waitlist (30 parties queued)',
    target: '>= 30% of baseline rps, p99 < 25 ms at 32 connections (SQLite, own target: the issue sets none)',
    minRatio: 0.3,
    maxP99Ms: 25,
    http: async (ctx) => {
      const { slug } = await queue(ctx);
      return { path: `/public/restaurants/${slug}/waitlist`, connections: 32 };
    },
  },
  {
    name: 'GET /public/waitlist/:token (position and estimate of the last party)',
    target: '>= 30% of baseline rps, p99 < 25 ms at 32 connections (SQLite, own target: the issue sets none)',
    minRatio: 0.3,
    maxP99Ms: 25,
    http: async (ctx) => {
      const { token } = await queue(ctx);
      return { path: `/public/waitlist/${token}`, connections: 32 };
    },
  },
];
