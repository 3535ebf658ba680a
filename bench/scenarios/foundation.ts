import type { BenchScenario } from '../scenario.ts';

export const scenarios: BenchScenario[] = [
  {
    name: 'GET /v1/menu_items?limit=100&expand[]=category',
    target: '>= 40% of baseline rps, p99 < 15 ms at 32 connections (SQLite)',
    minRatio: 0.4,
    maxP99Ms: 15,
    http: async (ctx) => {
      // The demo menu has ~35 items; top it up so a page really holds 100.
      const cats = await ctx.api.get('/v1/menu_categories?limit=1');
      const category = cats.body.data[0].id;
      for (let i = 0; i < 80; i++) {
        await ctx.api.post('/v1/menu_items', { name: `Bench item ${i}`, category, price: 500 + i, tags: ['bench'], allergens: ['gluten'] });
      }
      return { path: '/v1/menu_items?limit=100&expand[]=category', headers: { 'x-api-key': ctx.keys.secret }, connections: 32 };
    },
  },
];
