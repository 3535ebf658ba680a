import type { Feature } from './feature.ts';

export const analyticsFeature: Feature = { name: 'analytics' };
