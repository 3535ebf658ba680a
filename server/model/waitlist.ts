/** A waitlist entry's statuses: the one list, which the table's type, the API and the presenters derive from. */
export const WAITLIST_STATUSES = ['waiting', 'notified', 'seated', 'cancelled', 'expired'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** Entries holding a place in the queue. */
export const ACTIVE_WAITLIST_STATUSES: readonly WaitlistStatus[] = ['waiting', 'notified'];
