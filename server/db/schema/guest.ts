import type { CaptchaChallengesTable } from '../tables/captcha-challenges.table.ts';
import type { FeedbackTable } from '../tables/feedback.table.ts';
import type { GuestMessagesTable } from '../tables/guest-messages.table.ts';
import type { ServiceSecretsTable } from '../tables/service-secrets.table.ts';
import type { WaitlistEntriesTable } from '../tables/waitlist-entries.table.ts';

/** Tables of the guest feature: one line per `*.table.ts`. */
export interface GuestTables {
  waitlist_entries: WaitlistEntriesTable;
  feedback: FeedbackTable;
  guest_messages: GuestMessagesTable;
  captcha_challenges: CaptchaChallengesTable;
  service_secrets: ServiceSecretsTable;
}
