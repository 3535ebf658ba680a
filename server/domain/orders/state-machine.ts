import { ApiError } from '../../errors.ts';
import { LINE_TRANSITIONS, ORDER_TRANSITIONS, type LineStatus, type OrderStatus } from '../../model/orders.ts';

export function assertOrderTransition(from: OrderStatus, to: OrderStatus): void {
  if (!ORDER_TRANSITIONS[from].includes(to)) {
    throw new ApiError(
      'invalid_transition',
      `This order is '${from}' and cannot move to '${to}'` +
        (ORDER_TRANSITIONS[from].length ? `; allowed: ${ORDER_TRANSITIONS[from].join(', ')}.` : '; it is final.'),
      'status',
    );
  }
}

export function assertLineTransition(index: number, from: LineStatus, to: LineStatus): void {
  if (!LINE_TRANSITIONS[from].includes(to)) {
    throw new ApiError(
      'invalid_transition',
      `Line ${index} is '${from}' and cannot move to '${to}'` +
        (LINE_TRANSITIONS[from].length ? `; allowed: ${LINE_TRANSITIONS[from].join(', ')}.` : '; it is final.'),
      'status',
    );
  }
}
