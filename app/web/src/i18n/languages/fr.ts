import type { Key } from '../keys.ts';
import { fr as backOffice } from '../fr.ts';
import { firstDayFr } from '../first-day/fr.ts';
import { formsFr } from '../forms/fr.ts';
import { opsFr } from '../ops/fr.ts';
import { payFr } from '../payments/fr.ts';
import { screensTexts } from '../screens/index.ts';
import { serviceFr } from '../service/fr.ts';
import { venueFr } from '../venue/fr.ts';

/** Every text of the back office in this language: a chunk of its own, fetched only by a reader of it. */
export const dictionary: Record<Key, string> = { ...screensTexts.fr, ...backOffice, ...opsFr, ...serviceFr, ...payFr, ...firstDayFr, ...venueFr, ...formsFr };
