import type { BenchScenario } from '../scenario.ts';

export const scenarios: BenchScenario[] = [];
