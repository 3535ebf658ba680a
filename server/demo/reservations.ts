import type { DemoStep } from './step.ts';

/** Demo data of the reservations feature. */
export const reservationsDemo: DemoStep = async () => {};
