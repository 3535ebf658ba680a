import type { Feature } from './feature.ts';

export const reservationsFeature: Feature = { name: 'reservations' };
