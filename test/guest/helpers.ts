import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { solveChallenge } from 'altcha-lib/v1';
import { guestOf } from '../../server/http/guest-services.ts';
import type { TestHub } from '../helpers/server.ts';
import { freePort } from '../helpers/free-port.ts';
export { freePort };

/** The clock's default moment, Monday 2026-11-02 12:00 UTC, is 13:00 in Berlin. */
export const MONDAY_LUNCH = { monday: [{ open: '11:00', close: '15:00' }] };

/** Switches the waitlist on with lunch hours on Mondays (open at the test clock's start). */
export async function openWaitlist(hub: TestHub, api = hub.api, waitlist: Record<string, unknown> = {}) {
  const r = await api.patch('/v1/settings', { opening_hours: MONDAY_LUNCH, waitlist: { enabled: true, max_party_size: 8, ...waitlist } });
  if (r.status !== 200) throw new Error(`settings: ${JSON.stringify(r.body)}`);
}

let phoneSeq = 1000;
/** A fresh valid Berlin number per call. */
export const nextPhone = () => `+49 30 1234${phoneSeq++}`;

/** A guest joining from the phone: with the bot check solved, as the join page does. */
export async function join(hub: TestHub, body: Record<string, unknown> = {}, slug = hub.restaurant.slug) {
  const captchaToken = await solvedCaptcha(hub);
  return hub.api.post(`/public/restaurants/${slug}/waitlist/join`, { guestName: 'Ada', partySize: 2, phone: nextPhone(), consent: true, captchaToken, ...body }, { key: null });
}

export async function counts(hub: TestHub, tables: string[]) {
  const db = hub.server.services.db as any;
  const out: Record<string, number> = {};
  for (const t of tables) {
    const r = await db.selectFrom(t).select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirst();
    out[t] = Number(r.n);
  }
  return out;
}

/**
 * Fetches a challenge and solves it as the altcha widget would; returns the captchaToken.
 * The challenges are made easy first (the real work is the same, only shorter).
 */
export async function solvedCaptcha(hub: TestHub, headers: Record<string, string> = {}): Promise<string> {
  const guest = guestOf(hub.server.services);
  guest.captchaMaxNumber = Math.min(guest.captchaMaxNumber, 2000);
  const c = await hub.api.get('/public/captcha', { key: null, headers });
  if (c.status !== 200) throw new Error(`captcha: ${JSON.stringify(c.body)}`);
  const solution = await solveChallenge(c.body.challenge, c.body.salt, c.body.algorithm, c.body.maxnumber).promise;
  if (!solution) throw new Error('challenge not solved');
  const payload = { algorithm: c.body.algorithm, challenge: c.body.challenge, number: solution.number, salt: c.body.salt, signature: c.body.signature };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

export interface SmtpSink {
  port: number;
  mails: { from: string; to: string[]; data: string }[];
  close(): Promise<void>;
}

/** A minimal SMTP server on 127.0.0.1 that accepts every mail (no TLS, no auth). */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const mails: SmtpSink['mails'] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    let buf = '';
    let inData = false;
    let cur = { from: '', to: [] as string[], data: '' };
    sock.write('220 sink ESMTP\r\n');
    sock.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          cur.data = buf.slice(0, end);
          buf = buf.slice(end + 5);
          inData = false;
          mails.push(cur);
          cur = { from: '', to: [], data: '' };
          sock.write('250 queued\r\n');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') sock.write('250-sink\r\n250 8BITMIME\r\n');
        else if (verb === 'HELO') sock.write('250 sink\r\n');
        else if (verb === 'MAIL') (cur.from = line.slice(10).trim()), sock.write('250 ok\r\n');
        else if (verb === 'RCPT') cur.to.push(line.slice(8).trim()), sock.write('250 ok\r\n');
        else if (verb === 'DATA') (inData = true), sock.write('354 go ahead\r\n');
        else if (verb === 'QUIT') sock.end('221 bye\r\n');
        else if (verb === 'RSET' || verb === 'NOOP') sock.write('250 ok\r\n');
        else sock.write('502 not implemented\r\n');
      }
    });
    sock.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}


/** A fake SMS gateway on 127.0.0.1 recording what it was asked to send. */
export async function startSmsGateway(status = 200) {
  const received: { to: string; text: string; auth: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ ...JSON.parse(body), auth: req.headers.authorization });
      res.statusCode = status;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
