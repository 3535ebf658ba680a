import type { Feature } from './feature.ts';

export const guestFeature: Feature = { name: 'guest' };
