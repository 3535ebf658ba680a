import type { DemoStep } from './step.ts';

/** Demo data of the printers feature. */
export const printersDemo: DemoStep = async () => {};
