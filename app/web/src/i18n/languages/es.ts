import type { Key } from '../keys.ts';
import { es as backOffice } from '../es.ts';
import { firstDayEs } from '../first-day/es.ts';
import { formsEs } from '../forms/es.ts';
import { opsEs } from '../ops/es.ts';
import { payEs } from '../payments/es.ts';
import { screensTexts } from '../screens/index.ts';
import { serviceEs } from '../service/es.ts';
import { venueEs } from '../venue/es.ts';

/** Every text of the back office in this language: a chunk of its own, fetched only by a reader of it. */
export const dictionary: Record<Key, string> = { ...screensTexts.es, ...backOffice, ...opsEs, ...serviceEs, ...payEs, ...firstDayEs, ...venueEs, ...formsEs };
