import type { PaymentContext } from '../../domain/payments/take-payment.ts';
import type { Services } from '../../services.ts';
import { orderContext } from '../orders/context.ts';

export const paymentContext = (services: Services): PaymentContext => orderContext(services);
