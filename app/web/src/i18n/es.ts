import type { Key } from './en.ts';

export const es: Partial<Record<Key, string>> = {};
