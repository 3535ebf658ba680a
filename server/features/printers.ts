import type { Feature } from './feature.ts';

export const printersFeature: Feature = { name: 'printers' };
