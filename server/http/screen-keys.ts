import { ApiError } from '../errors.ts';

/**
 * A paired screen's key (api_keys.screen) does the work of its screen and nothing else: a
 * station's tablet reads and bumps that station's lines; an expo screen (paired for every
 * station) reads every open order and moves orders along the pass. Neither places, cancels or
 * completes orders, nor reads guests' phone numbers, emails or addresses: a tablet on a kitchen
 * wall is the easiest thing in the venue to pick up.
 */
export interface ScreenBinding {
  /** the station whose lines it shows; null for an expo screen (every station) */
  station: string | null;
}

/** Which paired screens may call a route: any ('station', within its own station), or only an expo screen. */
export type ScreenAccess = 'station' | 'expo';

export const screenOf = (column: string | null): ScreenBinding | undefined =>
  column === null ? undefined : { station: column === '*' ? null : column };

const refuse = (message: string, param?: string) => new ApiError('insufficient_scope', message, param);

/** Refuses a screen's key on a route no screen needs, and a station's key on an expo route. */
export function assertScreenRoute(screen: ScreenBinding, access: ScreenAccess | undefined): void {
  if (!access) throw refuse("A paired screen's key works its screen only (its tickets, bump and recall); use a key made in Settings → API keys for this.");
  if (access === 'expo' && screen.station !== null) {
    throw refuse(`This screen was paired for the '${screen.station}' station; only an expo screen (every station) does this.`);
  }
}

/**
 * The station a screen works: its own for a station's screen (asking for another is refused),
 * what was asked (or every station) for an expo screen and for any other caller.
 */
export function stationOf(screen: ScreenBinding | undefined, asked: string | undefined, param = 'station'): string | undefined {
  if (!screen || screen.station === null) return asked;
  if (asked !== undefined && asked !== screen.station) throw refuse(`This screen was paired for the '${screen.station}' station, not '${asked}'.`, param);
  return screen.station;
}
