import type { components } from './api.gen.ts';

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

export const OPEN_STATUSES: OrderStatus[] = ['placed', 'preparing', 'ready', 'served'];

/** The state machine's forward moves (server/domain/orders/state-machine.ts). */
export const NEXT_STATUSES: Record<OrderStatus, OrderStatus[]> = {
  draft: ['placed', 'cancelled'],
  placed: ['preparing', 'ready', 'served', 'completed'],
  preparing: ['ready', 'served', 'completed'],
  ready: ['served', 'completed'],
  served: ['completed'],
  completed: [],
  cancelled: [],
};

