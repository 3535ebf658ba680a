import type { Key } from '../keys.ts';
import { en as backOffice } from '../en.ts';
import { firstDayEn } from '../first-day/en.ts';
import { formsEn } from '../forms/en.ts';
import { opsEn } from '../ops/en.ts';
import { payEn } from '../payments/en.ts';
import { screensEn } from '../screens/en.ts';
import { serviceEn } from '../service/en.ts';
import { venueEn } from '../venue/en.ts';

/** Every text of the back office in English: in the main chunk, as every language's fallback. */
export const dictionary: Record<Key, string> = { ...screensEn, ...backOffice, ...opsEn, ...serviceEn, ...payEn, ...firstDayEn, ...venueEn, ...formsEn };
