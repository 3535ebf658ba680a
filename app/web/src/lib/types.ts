/** The API's objects as the back office reads them (the server's presenters are the truth). */
export interface OrderLine {
  index: number;
  menu_item: string;
  name: string;
  quantity: number;
  unit_price: number;
  modifiers: { group: string; name: string; price_adjustment: number }[];
  notes: string | null;
  status: 'pending' | 'preparing' | 'ready' | 'served';
  station: string;
}

export type OrderStatus = 'draft' | 'placed' | 'preparing' | 'ready' | 'served' | 'completed' | 'cancelled';

export interface Order {
  id: string;
  created: number;
  updated: number;
  order_number: string;
  type: 'dine_in' | 'takeout' | 'delivery';
  status: OrderStatus;
  source: string;
  table: string | { id: string; number: string } | null;
  customer: { name: string | null; phone: string | null; email: string | null };
  items: OrderLine[];
  subtotal: number;
  tax_amount: number;
  total: number;
  currency: string;
  notes: string | null;
  placed_at: number | null;
  completed_at: number | null;
  cancelled_at: number | null;
  cancel_reason: string | null;
  livemode: boolean;
  delivery_address: string | null;
}

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

export interface Category {
  id: string;
  name: string;
  description: string | null;
  parent_category: string | null;
  sort_order: number;
  is_active: boolean;
  station: string;
  available_from: string | null;
  available_until: string | null;
  available_days: string[];
}

export interface MenuItem {
  id: string;
  name: string;
  description: string | null;
  category: string;
  price: number;
  cost: number | null;
  tax_rate: number | null;
  image_url: string | null;
  is_active: boolean;
  is_available: boolean;
  allergens: string[];
  tags: string[];
  modifier_groups: string[];
  sort_order: number;
  translations: Record<string, { name?: string; description?: string }>;
}

export interface ModifierGroup {
  id: string;
  name: string;
  required: boolean;
  min_selections: number;
  max_selections: number;
  modifiers: { name: string; price_adjustment: number; is_default?: boolean; is_available?: boolean }[];
}

export interface Station {
  id: string;
  key: string;
  name: string;
  is_active: boolean;
}

export interface Table {
  id: string;
  number: number;
  capacity: number;
  zone: string | null;
  status: string;
  is_active: boolean;
}

export interface Reservation {
  id: string;
  guest: { name: string; email: string | null; phone: string | null };
  party_size: number;
  date: string;
  time: string;
  duration_minutes: number;
  starts_at: number;
  ends_at: number;
  table: string | null;
  status: string;
  notes: string | null;
  no_show_risk: number | null;
}

export interface WaitlistEntry {
  id: string;
  created: number;
  status: string;
  source: string;
  guest_name: string;
  party_size: number;
  phone: string | null;
  notes: string | null;
  notified_at: number | null;
}
