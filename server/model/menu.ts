/** One choice of a modifier group, as stored in its JSON and priced at order time. */
export interface Modifier {
  name: string;
  price_adjustment: number;
  is_default: boolean;
  is_available: boolean;
  sort_order: number;
}
