import type { Feature } from './feature.ts';

export const webhooksFeature: Feature = { name: 'webhooks' };
