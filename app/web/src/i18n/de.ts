import type { Key } from './en.ts';

export const de: Partial<Record<Key, string>> = {};
