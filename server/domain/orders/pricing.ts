import type { WallClock } from '../wall-clock.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { Catalogue } from '../menu/catalogue.ts';
import type { Modifier } from '../../model/menu.ts';
import { categoryAvailable } from './menu-availability.ts';
import { lineTax } from '../../model/totals.ts';

/** What a client may say about one line; every price and name comes from the catalogue. */
export interface LineInput {
  menu_item: string;
  quantity: number;
  /** a modifier's name, or `{ group, name }` when the same name is offered by two groups */
  modifiers?: (string | { group?: string; name: string })[];
  notes?: string | null;
  /** the guest's seat (1, 2, …) and the course the line is served with; both optional */
  seat?: number | null;
  course?: number | null;
  /** staff only: the line's course is held back from the stations until it is fired */
  held?: boolean;
}

export interface PricedModifier {
  group: string;
  name: string;
  price_adjustment: number;
}

export interface PricedLine {
  menu_item_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  modifiers: PricedModifier[];
  line_subtotal: number;
  tax_rate: number;
  tax_amount: number;
  notes: string | null;
  seat: number | null;
  course: number | null;
  held: boolean;
  station: string;
  /** the item's preparation time, for the order's estimate (not stored on the line) */
  preparation_time_minutes: number | null;
}

export const MAX_QUANTITY = 99;
export const MAX_LINES = 100;
export const DEFAULT_STATION = 'kitchen';

export { lineTax } from '../../model/totals.ts';

export interface PricingOptions {
  defaultTaxRate: number;
  /** the restaurant's prices already hold their tax (the tax is the part inside, not added) */
  pricesIncludeTax?: boolean;
  /** guest channels: the item's category (and its parents) must be active and inside its time window now */
  availableAt?: WallClock;
  /** parameter name of the items list in error messages (`items`) */
  param?: string;
}

/**
 * Prices lines against one restaurant's catalogue. An unknown id and one of another
 * restaurant are the same 404; an inactive or unavailable item is refused with
 * `menu_item_unavailable`; modifiers are checked against the item's groups.
 */
export function priceLines(catalogue: Catalogue, lines: LineInput[], opts: PricingOptions): PricedLine[] {
  const param = opts.param ?? 'items';
  const itemById = catalogue.items;
  const groupById = catalogue.groups;
  const catById = catalogue.categories;

  return lines.map((line, i) => {
    const at = `${param}[${i}]`;
    const item = itemById.get(line.menu_item);
    if (!item) throw notFound('menu item', line.menu_item, `${at}.menu_item`);
    if (item.is_active !== 1 || item.is_available !== 1) {
      throw new ApiError(
        'menu_item_unavailable',
        // in the words a guest may be shown: the dish by name (the line is in `param`), never its id
        `${item.name} is ${item.is_active !== 1 ? 'no longer on the menu' : 'no longer available'}.`,
        `${at}.menu_item`,
      );
    }
    if (opts.availableAt && !categoryAvailable(catById, item.category_id, opts.availableAt)) {
      throw new ApiError('menu_item_unavailable', `${item.name} is not served at this time.`, `${at}.menu_item`);
    }
    const modifiers = pickModifiers(
      item.name,
      (JSON.parse(item.modifier_group_ids) as string[]).flatMap((id) => groupById.get(id) ?? []),
      line.modifiers ?? [],
      `${at}.modifiers`,
    );
    const unit = item.price + modifiers.reduce((s, m) => s + m.price_adjustment, 0);
    const line_subtotal = unit * line.quantity;
    const tax_rate = item.tax_rate ?? opts.defaultTaxRate;
    return {
      menu_item_id: item.id,
      name: item.name,
      quantity: line.quantity,
      unit_price: item.price,
      modifiers,
      line_subtotal,
      tax_rate,
      tax_amount: lineTax(line_subtotal, tax_rate, opts.pricesIncludeTax),
      notes: line.notes || null,
      seat: line.seat ?? null,
      course: line.course ?? null,
      held: line.held === true,
      station: item.station ?? DEFAULT_STATION,
      preparation_time_minutes: item.preparation_time_minutes,
    };
  });
}

type Group = { id: string; name: string; required: number; min_selections: number; max_selections: number; list: Modifier[] };

function pickModifiers(itemName: string, groups: Group[], picks: NonNullable<LineInput['modifiers']>, param: string): PricedModifier[] {
  const chosen = new Map<string, PricedModifier[]>(groups.map((g) => [g.id, []]));
  picks.forEach((pick, j) => {
    const name = (typeof pick === 'string' ? pick : pick.name).trim().toLowerCase();
    const groupId = typeof pick === 'string' ? undefined : pick.group;
    const matches = groups.flatMap((g) =>
      groupId && g.id !== groupId ? [] : g.list.filter((m) => m.name.toLowerCase() === name).map((m) => ({ g, m })),
    );
    const where = `${param}[${j}]`;
    if (matches.length === 0) {
      throw new ApiError('modifier_invalid', `'${itemName}' offers no modifier '${typeof pick === 'string' ? pick : pick.name}'${groupId ? ` in group ${groupId}` : ''}.`, where);
    }
    if (matches.length > 1) {
      throw new ApiError('modifier_invalid', `Modifier '${typeof pick === 'string' ? pick : pick.name}' is offered by several groups of '${itemName}'; send { group, name }.`, where);
    }
    const { g, m } = matches[0];
    if (!m.is_available) throw new ApiError('modifier_invalid', `Modifier '${m.name}' is not available right now.`, where);
    const list = chosen.get(g.id)!;
    if (list.some((x) => x.name === m.name)) throw new ApiError('modifier_invalid', `Modifier '${m.name}' is chosen twice.`, where);
    list.push({ group: g.id, name: m.name, price_adjustment: m.price_adjustment });
  });
  for (const g of groups) {
    const n = chosen.get(g.id)!.length;
    const min = Math.max(g.min_selections, g.required ? 1 : 0);
    if (n < min || n > g.max_selections) {
      throw new ApiError(
        'modifier_invalid',
        `'${itemName}' needs ${min === g.max_selections ? min : `${min} to ${g.max_selections}`} choice(s) from '${g.name}', got ${n}.`,
        param,
      );
    }
  }
  return groups.flatMap((g) => chosen.get(g.id)!);
}
