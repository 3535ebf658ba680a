import { ApiError } from '../errors.ts';
import type { Caller } from './authenticate.ts';

/**
 * Reads of the hub's machinery (the masked mail settings, the paired screens, the backup
 * folder and its files) are the back office's, not the floor's: a server's or cook's session
 * holds settings:read for the venue's own settings (hours, taxes, the menu's language), and is
 * refused these. A key keeps what its scopes give: an owner made it for this.
 */
export function managersRead(caller: Caller | null | undefined): void {
  if (isFloorSession(caller)) {
    throw new ApiError('insufficient_scope', 'This is for a manager or the owner signed in with their password.');
  }
}

/** A server's or cook's session (settings:read without settings:write): what managersRead refuses. */
export const isFloorSession = (caller: Caller | null | undefined): boolean => !!caller?.staff && !caller.scopes.has('settings:write');
