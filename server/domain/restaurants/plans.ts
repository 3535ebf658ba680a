/**
 * The built-in plans, as data. `sold: false` plans keep working for restaurants that have
 * them but are no longer offered (the public price list leaves them out).
 */
export const PLANS = [
  { id: 'starter', name: 'Starter', price_eur_month: 29, sold: true, features: { waitlist: false } },
  { id: 'pro', name: 'Pro', price_eur_month: 79, sold: true, features: { waitlist: true } },
  { id: 'enterprise', name: 'Enterprise', price_eur_month: 199, sold: true, features: { waitlist: true } },
  { id: 'classic', name: 'Classic (retired)', price_eur_month: 49, sold: false, features: { waitlist: true } },
] as const;

export type PlanId = (typeof PLANS)[number]['id'];

export const isPlan = (id: string): id is PlanId => PLANS.some((p) => p.id === id);
export const planById = (id: string) => PLANS.find((p) => p.id === id);
