import { OPEN_STATUSES as GENERATED_OPEN, ORDER_TRANSITIONS, type components } from './api.gen.ts';

/** The API's objects as the back office reads them: generated from the presenters' schemas (api.gen.ts). */
type Schemas = components['schemas'];
export type Order = Schemas['Order'];
export type OrderLine = Schemas['OrderItem'];
export type OrderStatus = Order['status'];
export type Category = Schemas['MenuCategory'];
export type MenuItem = Schemas['MenuItem'];
export type ModifierGroup = Schemas['ModifierGroup'];
export type Station = Schemas['Station'];
export type Table = Schemas['Table'];
export type Reservation = Schemas['Reservation'];
export type WaitlistEntry = Schemas['WaitlistEntry'];

/** The id of a reference the API may have expanded into its object (`expand[]=…`). */
export const refId = (ref: string | { id: string } | null | undefined): string | null => (ref && typeof ref === 'object' ? ref.id : (ref ?? null));

export const OPEN_STATUSES: readonly OrderStatus[] = GENERATED_OPEN;
export { ORDER_TYPES } from './api.gen.ts';

/** The server's forward moves; cancelling has its own button (it asks for a reason). */
export const NEXT_STATUSES: Record<OrderStatus, readonly OrderStatus[]> = Object.fromEntries(
  Object.entries(ORDER_TRANSITIONS).map(([from, to]) => [from, to.filter((s) => s !== 'cancelled')]),
) as Record<string, readonly OrderStatus[]> as Record<OrderStatus, readonly OrderStatus[]>;

