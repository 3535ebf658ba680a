import type { PrinterState } from './status.ts';

/**
 * A send that did not complete. `written` tells whether any document bytes may have
 * reached the printer: false means a retry can never print twice.
 */
export class PrintError extends Error {
  constructor(
    readonly state: PrinterState,
    message: string,
    readonly written: boolean,
  ) {
    super(message);
  }
}

/** The send was called off before any document byte was written (beforeWrite said no). */
export class SendCancelled extends PrintError {
  constructor() {
    super('error', 'send cancelled before writing', false);
  }
}
