/** A printed QR code: a table's (dine-in) or the counter's (takeout) door to guest ordering. */
export interface QrCodesTable {
  id: string;
  restaurant_id: string;
  /** unguessable; the only thing the guest's phone knows */
  token: string;
  type: 'dine_in' | 'takeout';
  table_id: string | null;
  label: string | null;
  is_active: number;
  disabled_at: number | null;
  created: number;
  updated: number;
}
