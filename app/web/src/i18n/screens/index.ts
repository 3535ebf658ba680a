import { screensDe } from './de.ts';
import { screensEn } from './en.ts';
import { screensEs } from './es.ts';
import { screensFr } from './fr.ts';
import { screensIt } from './it.ts';

/**
 * The screens' and guest pages' texts in the five languages. Those two pages add them all at
 * once (they are small); the back office's language chunks take their reader's from here, so
 * the other four travel as one file, not four.
 */
export const screensTexts = { en: screensEn, de: screensDe, fr: screensFr, es: screensEs, it: screensIt };
