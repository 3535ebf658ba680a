import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: whsec_ + base64 of 32 random bytes, as Standard Webhooks expects. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the decoded secret as key. */
export function sign(secret: string, msgId: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${msgId}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers; several secrets (during a roll) give space-separated signatures. */
export function signatureHeaders(secrets: string[], msgId: string, timestampSec: number, body: string): Record<string, string> {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestampSec),
    'webhook-signature': secrets.map((s) => sign(s, msgId, timestampSec, body)).join(' '),
  };
}
