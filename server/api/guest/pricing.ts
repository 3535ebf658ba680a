import { PLANS } from '../../domain/restaurants/plans.ts';
import { defineRoute } from '../../http/route.ts';
import { limitIp } from './guard.ts';

defineRoute({
  method: 'get',
  path: '/public/pricing',
  preflight: limitIp,
  summary: 'The public price list in euros per month; plans no longer sold are left out',
  tag: 'Guest: platform',
  auth: 'none',
  sandbox: 'keyless',
  handler: async (c) => {
    return {
      object: 'list',
      currency: 'eur',
      interval: 'month',
      data: PLANS.filter((p) => p.sold).map((p) => ({
        object: 'plan',
        id: p.id,
        name: p.name,
        priceEurPerMonth: p.price_eur_month,
        features: { ...p.features },
      })),
    };
  },
});
