import type { DemoStep } from './step.ts';

/** Demo data of the analytics feature. */
export const analyticsDemo: DemoStep = async () => {};
