import type { DemoStep } from './step.ts';

/** Demo data of the realtime feature. */
export const realtimeDemo: DemoStep = async () => {};
