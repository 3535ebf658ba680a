import type { GuestLang } from '../guest/lang.ts';

interface NoticeFacts {
  guestName: string;
  partySize: number;
  restaurantName: string;
  /** how long the table is held */
  minutes: number;
}

/** The "your table is ready" notice, in the language the party joined in. */
const NOTICES: Record<GuestLang, (f: NoticeFacts) => { subject: string; body: string }> = {
  en: (f) => ({
    subject: `Your table at ${f.restaurantName} is ready`,
    body: `Hello ${f.guestName}, your table for ${f.partySize} at ${f.restaurantName} is ready. Please come to the host stand within ${f.minutes} minutes.`,
  }),
  de: (f) => ({
    subject: `Ihr Tisch bei ${f.restaurantName} ist bereit`,
    body: `Hallo ${f.guestName}, Ihr Tisch für ${f.partySize} bei ${f.restaurantName} ist bereit. Bitte kommen Sie innerhalb von ${f.minutes} Minuten zum Empfang.`,
  }),
  fr: (f) => ({
    subject: `Votre table chez ${f.restaurantName} est prête`,
    body: `Bonjour ${f.guestName}, votre table pour ${f.partySize} chez ${f.restaurantName} est prête. Merci de vous présenter à l'accueil dans les ${f.minutes} minutes.`,
  }),
  es: (f) => ({
    subject: `Su mesa en ${f.restaurantName} está lista`,
    body: `Hola ${f.guestName}, su mesa para ${f.partySize} en ${f.restaurantName} está lista. Por favor, acérquese a la recepción en los próximos ${f.minutes} minutos.`,
  }),
  it: (f) => ({
    subject: `Il suo tavolo da ${f.restaurantName} è pronto`,
    body: `Buongiorno ${f.guestName}, il suo tavolo per ${f.partySize} da ${f.restaurantName} è pronto. La preghiamo di presentarsi all'accoglienza entro ${f.minutes} minuti.`,
  }),
};

export const buildNotice = (lang: GuestLang, facts: NoticeFacts) => NOTICES[lang](facts);
