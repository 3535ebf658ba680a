import { z } from 'zod';

/**
 * What a client may send. Staff authenticate with an API key (`sk_…` or `wk_…`) in the first
 * message or as a subprotocol; guests with a token and its kind (`qr`, `waitlist`).
 * Nothing is read from the URL, which proxies and logs keep.
 */
const topics = z.array(z.string().min(1).max(250)).min(1).max(20);

export const clientMessage = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('auth'),
      key: z.string().min(1).max(200).optional(),
      kind: z.string().min(1).max(40).optional(),
      token: z.string().min(1).max(500).optional(),
      /** the back office: the staff session whose cookie came with the connection */
      session: z.literal(true).optional(),
      /** a staff session sent by its token: a device working through the cloud (no cookie crosses) */
      session_token: z.string().min(1).max(100).optional(),
    })
    .strict()
    .refine((m) => [m.key !== undefined, m.token !== undefined && m.kind !== undefined, m.session === true, m.session_token !== undefined].filter(Boolean).length === 1, {
      message: 'send either key, or kind and token, or session, or session_token',
    }),
  z.object({ type: z.literal('subscribe'), topics, since: z.number().int().min(0).optional() }).strict(),
  z.object({ type: z.literal('unsubscribe'), topics }).strict(),
  z.object({ type: z.literal('ping') }).strict(),
]);

export type ClientMessage = z.infer<typeof clientMessage>;

/** The key offered as a subprotocol next to `comanda.v1` (browsers cannot set headers on a WebSocket). */
export function keyFromProtocols(header: string | undefined): string | null {
  if (!header) return null;
  for (const p of header.split(',')) {
    const v = p.trim();
    if (/^(sk|wk)_(live|test)_[0-9A-Za-z]+$/.test(v)) return v;
  }
  return null;
}
