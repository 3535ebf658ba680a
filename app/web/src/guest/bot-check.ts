import { solveChallenge } from 'altcha-lib/v1';
import { ApiFailure, get } from '../lib/api.ts';

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
 * (altcha, as on the contact form), solved by the phone while the guest fills in the form, so
 * nobody sees a puzzle. Each solution is good once, for this phone's address, for 10 minutes.
 */
async function solveOne(): Promise<string> {
  const c = await get<Challenge>('/public/captcha');
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber ?? c.maxNumber).promise;
  if (!solution) throw new Error('bot check not solved');
  return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature }));
}

let ahead: Promise<string> | null = null;

/** Starts solving now (when a form opens), so the token is ready by the time the guest sends. */
export function prepareBotCheck(): void {
  ahead ??= solveOne();
  ahead.catch(() => (ahead = null));
}

/**
 * Sends with a solved token; a token refused (expired while the guest was typing, or the
 * phone changed networks) is solved again once.
 */
export async function withBotCheck<T>(send: (captchaToken: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const token = ahead ?? solveOne();
    ahead = null;
    try {
      return await send(await token);
    } catch (err) {
      if (attempt > 0 || !(err instanceof ApiFailure) || err.code !== 'captcha_invalid') throw err;
    }
  }
}
