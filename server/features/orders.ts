import type { Feature } from './feature.ts';

export const ordersFeature: Feature = { name: 'orders' };
