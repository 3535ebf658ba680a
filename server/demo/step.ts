import type { Transactor } from '../db/transact.ts';
import type { Hooks } from '../domain/orders/hooks.ts';
import type { Actor } from '../services.ts';

export interface DemoOptions {
  historyDays: number;
  ordersPerDay: number;
}

/** One feature's part of `comanda demo`; it may add fields to the printed result (e.g. `qr`). */
export type DemoStep = (tx: Transactor, actor: Actor, opts: DemoOptions, result: Record<string, unknown>, hooks: Hooks) => Promise<void>;
