/** How a guest pays: cash at the till, a card on the venue's terminal, anything else (a voucher…). */
export const PAYMENT_METHODS = ['cash', 'card', 'other'] as const;
