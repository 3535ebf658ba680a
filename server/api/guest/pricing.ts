import { PLANS } from '../../domain/restaurants/plans.ts';
import { defineRoute, type RouteSpec } from '../../http/route.ts';
import { z } from 'zod';
import { named } from '../../model/schemas.ts';
import { limitIp } from './guard.ts';

const PricingSchema = named(
  'Pricing',
  z.object({
    object: z.literal('list'),
    currency: z.literal('eur'),
    interval: z.literal('month'),
    data: z.array(
      z.object({ object: z.literal('plan'), id: z.string(), name: z.string(), priceEurPerMonth: z.number(), features: z.record(z.string(), z.boolean()) }),
    ),
  }),
);

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/public/pricing',
    response: PricingSchema,
    preflight: limitIp,
    summary: 'The public price list in euros per month; plans no longer sold are left out',
    tag: 'Guest: platform',
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => {
      return {
        object: 'list' as const,
        currency: 'eur' as const,
        interval: 'month' as const,
        data: PLANS.filter((p) => p.sold).map((p) => ({
          object: 'plan' as const,
          id: p.id,
          name: p.name,
          priceEurPerMonth: p.price_eur_month,
          features: { ...p.features },
        })),
      };
    },
  }),
];
