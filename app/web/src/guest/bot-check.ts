import { solveChallenge } from 'altcha-lib/v1';
import { api, ApiFailure } from '../lib/api.ts';

interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  maxNumber?: number;
  salt: string;
  signature: string;
  expires: number;
}

/**
 * The bot check of the guest forms (waitlist join, feedback): the hub's own proof of work
 * (altcha, as on the contact form), solved by the phone only when the hub asks for it (past a
 * rate, or when the venue asks every guest), so nobody sees a puzzle. Each solution is good once,
 * for this phone's address, for 10 minutes.
 */
async function solveOne(challengeUrl: string): Promise<string> {
  // the address is the server's own (the refusal's challenge_url), not a path of the document
  const c = await api<Challenge>('GET', challengeUrl);
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber ?? c.maxNumber).promise;
  if (!solution) throw new Error('bot check not solved');
  return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature }));
}

/** Where the hub serves challenges, when an answer does not name it. */
const CHALLENGE_URL = '/public/captcha';

/**
 * Sends without a bot check first. Asked for one (captcha_required), it solves the challenge the
 * answer names and sends again with the solution; a solution refused (expired, or the phone
 * changed networks on the way) is solved once more.
 */
export async function withBotCheck<T>(send: (captchaToken?: string) => Promise<T>): Promise<T> {
  let token: string | undefined;
  for (let solved = 0; ; solved++) {
    try {
      return await send(token);
    } catch (err) {
      const asked = err instanceof ApiFailure && (err.code === 'captcha_required' || (token !== undefined && err.code === 'captcha_invalid'));
      if (!asked || solved >= 2) throw err;
      token = await solveOne(err.challengeUrl ?? CHALLENGE_URL);
    }
  }
}
