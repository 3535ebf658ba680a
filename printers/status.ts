/**
 * ESC/POS real-time status (DLE EOT n). The printer answers each query with one byte at
 * once, even while busy or offline, which is what makes it usable before a send.
 * Bits 1 and 4 of every answer are fixed (1 and 1, 0 and 7 are 0): 0x12 means "all clear".
 */
export const DLE_EOT = (n: 1 | 2 | 3 | 4): Buffer => Buffer.from([0x10, 0x04, n]);

export const STATUS_OK = 0x12;
/** n=1 printer status: bit 3 set = offline */
export const PRINTER_OFFLINE_BIT = 0x08;
/** n=2 offline cause: bit 2 cover open, bit 5 paper end stop, bit 6 error */
export const COVER_OPEN_BIT = 0x04;
export const PAPER_END_STOP_BIT = 0x20;
export const ERROR_BIT = 0x40;
/** n=4 roll paper sensor: bits 5+6 = paper end, bits 2+3 = near end */
export const PAPER_END_BITS = 0x60;
export const PAPER_NEAR_END_BITS = 0x0c;

export type PrinterState = 'online' | 'offline' | 'paper_out' | 'error';

export interface StatusReading {
  state: PrinterState;
  detail: string | null;
}

/** Reads the answers to DLE EOT 1, 2 and 4 (in that order) into one state. */
export function interpretStatus(printer: number, offlineCause: number, paper: number): StatusReading {
  const valid = (b: number) => (b & 0x93) === 0x12;
  if (!valid(printer) || !valid(offlineCause) || !valid(paper)) {
    return { state: 'error', detail: `unexpected status bytes ${[printer, offlineCause, paper].map((b) => b.toString(16)).join(' ')}` };
  }
  if ((paper & PAPER_END_BITS) === PAPER_END_BITS || offlineCause & PAPER_END_STOP_BIT) return { state: 'paper_out', detail: 'paper end' };
  if (printer & PRINTER_OFFLINE_BIT) {
    if (offlineCause & COVER_OPEN_BIT) return { state: 'offline', detail: 'cover open' };
    if (offlineCause & ERROR_BIT) return { state: 'error', detail: 'printer error' };
    return { state: 'offline', detail: 'printer offline' };
  }
  return { state: 'online', detail: (paper & PAPER_NEAR_END_BITS) === PAPER_NEAR_END_BITS ? 'paper near end' : null };
}
