import type { DemoStep } from './step.ts';

/** Demo data of the guest feature. */
export const guestDemo: DemoStep = async () => {};
