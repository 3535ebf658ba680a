import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';

export interface MailMessage {
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
}

/** Anything that delivers one mail or throws. nodemailer's SMTP transport in production. */
export interface MailSender {
  send(m: MailMessage): Promise<void>;
}

/** Anything that delivers one SMS or throws: the pluggable part of SMS notices. */
export interface SmsSender {
  send(to: string, text: string): Promise<void>;
}

export function smtpSender(mail: Config['mail']): MailSender | null {
  if (!mail.smtp) return null;
  const { host, port, secure, user, pass } = mail.smtp;
  const transport = nodemailer.createTransport({
    host,
    port,
    secure: secure ?? false,
    auth: user ? { user, pass } : undefined,
    // a hub on a shop LAN: give up fast and let the queue retry
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(m) {
      await transport.sendMail({ from: mail.from, to: m.to, replyTo: m.replyTo ?? undefined, subject: m.subject, text: m.text });
    },
  };
}

/** A generic HTTP SMS gateway: POST {to, text} as JSON, optional bearer token; any 2xx is delivered. */
export function httpSmsSender(sms: Config['sms']): SmsSender | null {
  if (!sms) return null;
  return {
    async send(to, text) {
      const res = await fetch(sms.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(sms.token ? { authorization: `Bearer ${sms.token}` } : {}) },
        body: JSON.stringify({ to, text }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
    },
  };
}
