import { recordFeedback } from '../domain/feedback/feedback.ts';
import { addEntry, moveEntry } from '../domain/waitlist/entries.ts';
import { signEntryToken } from '../domain/waitlist/token.ts';
import type { DemoStep } from './step.ts';

const PARTIES: [string, number, string | null, string | null, 'online' | 'walk_in'][] = [
  ['Giulia B.', 2, '+49 30 22233344', null, 'online'],
  ['Familie Schmidt', 5, null, 'schmidt@example.org', 'online'],
  ['Marco', 3, null, null, 'walk_in'],
  ['Sophie L.', 4, '+49 30 55566677', 'sophie@example.org', 'online'],
];

/**
 * Demo data of the guest feature: a live waitlist (three seatings in the last half hour set
 * the pace, four parties waiting), a few feedback records, and the public links.
 */
export const guestDemo: DemoStep = async (tx, actor, _opts, result, hooks) => {
  const restaurant = await tx.db.selectFrom('restaurants').select(['slug', 'guest_secret']).where('id', '=', actor.restaurantId).executeTakeFirstOrThrow();
  let firstToken: string | null = null;
  await tx.run(async (trx) => {
    for (const [i, minutesAgo] of [40, 32, 24].entries()) {
      const at = { ...actor, now: actor.now - minutesAgo * 60_000 };
      const e = await addEntry(trx, hooks, at, { guestName: `Earlier party ${i + 1}`, partySize: 2, consent: false, source: 'walk_in' });
      await moveEntry(trx, hooks, { ...at, now: at.now + 10 * 60_000 }, e, 'seated');
    }
    for (const [i, [guestName, partySize, phone, email, source]] of PARTIES.entries()) {
      const at = { ...actor, now: actor.now - (12 - i * 3) * 60_000 };
      const e = await addEntry(trx, hooks, at, { guestName, partySize, phone, email, consent: source === 'online', source });
      firstToken ??= signEntryToken(e.id, restaurant.guest_secret);
    }
    for (const [rating, comment] of [
      [5, 'Best carbonara in town.'],
      [4, 'Lovely terrace, a little slow on a Friday.'],
      [2, null],
    ] as const) {
      await recordFeedback(trx, actor, { rating, comment });
    }
  });
  result.waitlist = {
    // the pages a guest opens (what to print on a poster or send), then the API behind them
    joinPage: `/r/${restaurant.slug}/waitlist`,
    feedbackPage: `/r/${restaurant.slug}/feedback`,
    statusOfFirstParty: `/waitlist/${firstToken}`,
    api: { join: `/public/restaurants/${restaurant.slug}/waitlist`, statusOfFirstParty: `/public/waitlist/${firstToken}` },
  };
};
