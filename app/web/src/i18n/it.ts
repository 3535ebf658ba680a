import type { Key } from './en.ts';

export const it: Partial<Record<Key, string>> = {};
