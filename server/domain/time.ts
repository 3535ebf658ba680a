import type { Actor } from '../services.ts';

export const seconds = (actor: Actor | { now: number }): number => Math.floor(actor.now / 1000);
