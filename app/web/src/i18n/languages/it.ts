import type { Key } from '../keys.ts';
import { it as backOffice } from '../it.ts';
import { firstDayIt } from '../first-day/it.ts';
import { formsIt } from '../forms/it.ts';
import { opsIt } from '../ops/it.ts';
import { payIt } from '../payments/it.ts';
import { screensTexts } from '../screens/index.ts';
import { serviceIt } from '../service/it.ts';
import { venueIt } from '../venue/it.ts';

/** Every text of the back office in this language: a chunk of its own, fetched only by a reader of it. */
export const dictionary: Record<Key, string> = { ...screensTexts.it, ...backOffice, ...opsIt, ...serviceIt, ...payIt, ...firstDayIt, ...venueIt, ...formsIt };
