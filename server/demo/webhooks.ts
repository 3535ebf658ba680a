import type { DemoStep } from './step.ts';

/** Demo data of the webhooks feature. */
export const webhooksDemo: DemoStep = async () => {};
