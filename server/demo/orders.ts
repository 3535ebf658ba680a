import type { DemoStep } from './step.ts';

/** Demo data of the orders feature. */
export const ordersDemo: DemoStep = async () => {};
