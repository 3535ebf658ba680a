import type { PaymentsTable } from '../../db/tables/payments.table.ts';

/** What a provider is asked to take: the amounts are in the order's currency, in minor units. */
export interface ChargeRequest {
  orderId: string;
  method: PaymentsTable['method'];
  amount: number;
  tipAmount: number;
  currency: string;
  /** what the person typed: the slip number, the card's last four digits */
  reference: string | null;
}

export interface ChargeResult {
  status: 'succeeded';
  /** the provider's own reference, kept on the payment */
  reference: string | null;
}

/**
 * Where a card terminal integration plugs in. comanda records payments; a provider is what
 * actually takes the money. The one provider today is `recorded`: the venue charged the
 * card on its own terminal (or took the cash) and the person at the till records it. A
 * terminal integration would charge here, inside the request, and refuse with an ApiError
 * when the terminal declines: nothing is then written.
 */
export interface PaymentProvider {
  readonly name: string;
  charge(req: ChargeRequest): Promise<ChargeResult>;
}

export const recordedProvider: PaymentProvider = {
  name: 'recorded',
  async charge(req) {
    return { status: 'succeeded', reference: req.reference };
  },
};

/** The provider that takes a method's payments; one for all until a terminal is configured. */
export function providerFor(_method: PaymentsTable['method']): PaymentProvider {
  return recordedProvider;
}
