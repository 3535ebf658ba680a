import type { Key as BackOfficeKey } from './en.ts';
import type { FirstDayKey } from './first-day/en.ts';
import type { FormsKey } from './forms/en.ts';
import type { OpsKey } from './ops/en.ts';
import type { PayKey } from './payments/en.ts';
import type { ScreensKey } from './screens/en.ts';
import type { ServiceKey } from './service/en.ts';
import type { VenueKey } from './venue/en.ts';

/** The back office's keys (with its sync, backups, mail and printers texts, i18n/ops/*) and those of the kitchen screens and guest pages (i18n/screens/*). */
export type Key = BackOfficeKey | ScreensKey | OpsKey | ServiceKey | PayKey | FirstDayKey | VenueKey | FormsKey;
