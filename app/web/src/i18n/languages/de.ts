import type { Key } from '../keys.ts';
import { de as backOffice } from '../de.ts';
import { firstDayDe } from '../first-day/de.ts';
import { formsDe } from '../forms/de.ts';
import { opsDe } from '../ops/de.ts';
import { payDe } from '../payments/de.ts';
import { screensTexts } from '../screens/index.ts';
import { serviceDe } from '../service/de.ts';
import { venueDe } from '../venue/de.ts';

/** Every text of the back office in this language: a chunk of its own, fetched only by a reader of it. */
export const dictionary: Record<Key, string> = { ...screensTexts.de, ...backOffice, ...opsDe, ...serviceDe, ...payDe, ...firstDayDe, ...venueDe, ...formsDe };
