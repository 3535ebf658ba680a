import { randomInt } from 'node:crypto';
import type { Services } from '../services.ts';

// No 0/O, 1/I/L: read off a console and typed on a tablet.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A one-time code like `K7QX-M2RP-ZT4H` (~59 bits). */
export function makeSetupCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < 3; g++) {
    let s = '';
    for (let i = 0; i < 4; i++) s += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(s);
  }
  return groups.join('-');
}

const codes = new WeakMap<Services, string>();

/** The code of this running server: printed on its console, asked of a setup from anywhere but the hub itself. */
export function setupCodeOf(services: Services): string {
  let c = codes.get(services);
  if (!c) codes.set(services, (c = makeSetupCode()));
  return c;
}

export function setSetupCode(services: Services, code: string): void {
  codes.set(services, code);
}

export const sameSetupCode = (a: string, b: string): boolean => {
  const norm = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return norm(a).length > 0 && norm(a) === norm(b);
};
