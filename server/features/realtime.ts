import type { Feature } from './feature.ts';

export const realtimeFeature: Feature = { name: 'realtime' };
