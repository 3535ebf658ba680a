import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A guest's handle to one entry: `<entry id>.<HMAC-SHA256(entry id, restaurant guest secret)>`
 * in base64url. The entry id says which restaurant's secret to check it with; the
 * signature is compared in constant time, so a guessed or edited token never resolves.
 */
export function signEntryToken(entryId: string, secret: string): string {
  return `${entryId}.${mac(entryId, secret).toString('base64url')}`;
}

/** The entry id a token names, or null when its shape is wrong (the signature is checked by verifyEntryToken). */
export function tokenEntryId(token: string): string | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const id = token.slice(0, dot);
  return /^wl_[0-9A-HJKMNP-TV-Z]{26}$/.test(id) ? id : null;
}

export function verifyEntryToken(token: string, entryId: string, secret: string): boolean {
  // Compared as text, not as decoded bytes: base64url decoding ignores the spare bits of the
  // last character, so an edited last character could otherwise still decode to the same MAC.
  const given = Buffer.from(token, 'utf8');
  const expected = Buffer.from(signEntryToken(entryId, secret), 'utf8');
  // timingSafeEqual needs equal lengths; a truncated token is simply wrong.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const mac = (entryId: string, secret: string) => createHmac('sha256', secret).update(entryId).digest();
