import type { Executor } from '../../db/records.ts';
import { guestLang, type GuestLang } from '../guest/lang.ts';
import { enqueueMessage } from '../guest/outbox.ts';

const TEXTS: Record<GuestLang, { subject: string; name: string; email: string; restaurant: string; message: string; none: string }> = {
  en: { subject: 'New contact request', name: 'Name', email: 'Email', restaurant: 'Restaurant', message: 'Message', none: '(not given)' },
  de: { subject: 'Neue Kontaktanfrage', name: 'Name', email: 'E-Mail', restaurant: 'Restaurant', message: 'Nachricht', none: '(keine Angabe)' },
  fr: { subject: 'Nouvelle demande de contact', name: 'Nom', email: 'E-mail', restaurant: 'Restaurant', message: 'Message', none: '(non renseigné)' },
  es: { subject: 'Nueva solicitud de contacto', name: 'Nombre', email: 'Correo electrónico', restaurant: 'Restaurante', message: 'Mensaje', none: '(no indicado)' },
  it: { subject: 'Nuova richiesta di contatto', name: 'Nome', email: 'E-mail', restaurant: 'Ristorante', message: 'Messaggio', none: '(non indicato)' },
};

export interface ContactRequest {
  name: string;
  email: string;
  restaurantName?: string | null;
  message: string;
  lang?: string | null;
}

export function buildContactMail(req: ContactRequest) {
  const lang = guestLang(req.lang);
  const t = TEXTS[lang];
  const subject = `${t.subject}: ${req.name}${req.restaurantName ? ` (${req.restaurantName})` : ''}`;
  const text = [
    `${t.name}: ${req.name}`,
    `${t.email}: ${req.email}`,
    `${t.restaurant}: ${req.restaurantName || t.none}`,
    '',
    `${t.message}:`,
    req.message,
  ].join('\n');
  return { lang, subject, text };
}

/** Queues the mail to the platform's contact address, reply-to the sender; the dispatcher sends and retries it. */
export async function queueContactMail(trx: Executor, nowMs: number, to: string, req: ContactRequest) {
  const mail = buildContactMail(req);
  return enqueueMessage(trx, nowMs, {
    restaurantId: null,
    kind: 'contact',
    channel: 'email',
    status: 'pending',
    recipient: to,
    replyTo: req.email,
    subject: mail.subject,
    body: mail.text,
    lang: mail.lang,
  });
}
