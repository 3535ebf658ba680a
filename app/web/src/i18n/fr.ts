import type { Key } from './en.ts';

export const fr: Partial<Record<Key, string>> = {};
