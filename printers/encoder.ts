import { transform, type Printer } from 'receiptline';

/** Command languages a printer may speak; each maps to one receiptline command set. */
export const LANGUAGES = ['escpos', 'starprnt'] as const;
export type Language = (typeof LANGUAGES)[number];

export const PAPER_WIDTHS = [58, 80] as const;
export type PaperWidth = (typeof PAPER_WIDTHS)[number];

const COMMAND: Record<Language, Printer['command']> = { escpos: 'escpos', starprnt: 'starsbcs' };

/** Characters per line of font A (12 dots) on 203 dpi heads: 384 and 576 printable dots. */
export const charsPerLine = (paperWidth: number): number => (paperWidth === 58 ? 32 : 48);

// cp858 is Western European with the euro sign; restaurants print names like "Tiramisù".
const ENCODING = 'cp858' as const;

export interface Target {
  language: Language;
  paperWidth: number;
}

/**
 * A ReceiptLine document as the bytes the printer takes. receiptline returns a binary
 * string (one char per byte), so latin1 gives the bytes back unchanged.
 */
export function renderCommands(doc: string, target: Target): Buffer {
  const out = transform(doc, { cpl: charsPerLine(target.paperWidth), encoding: ENCODING, command: COMMAND[target.language], cutting: true });
  return Buffer.from(out, 'latin1');
}

/**
 * The same document as an SVG image of the paper, for previews. receiptline's SVG imports a
 * web font from Google; the hub works offline and shares nothing, so that import is dropped
 * and the SVG falls back to the local monospace fonts it already names.
 */
export function renderSvg(doc: string, paperWidth: number): string {
  return transform(doc, { cpl: charsPerLine(paperWidth), encoding: ENCODING, command: 'svg' }).replace(/@import url\([^)]*\);?/g, '');
}

/** The same document as plain text (logs, tests, the CLI). */
export function renderText(doc: string, paperWidth: number): string {
  return transform(doc, { cpl: charsPerLine(paperWidth), encoding: ENCODING, command: 'text' });
}

/**
 * The pulse that opens a cash drawer hung on the printer's kick-out port (no paper moves).
 * ESC/POS: ESC p 0 t1 t2, pin 2, 50 ms on, 500 ms off. Star: BEL, the drawer 1 pulse.
 */
export function drawerPulse(language: Language): Buffer {
  return language === 'escpos' ? Buffer.from([0x1b, 0x70, 0x00, 0x19, 0xfa]) : Buffer.from([0x07]);
}

const SPECIAL = /[\\|{}\-=~_"`^]/g;

/**
 * Free text (names, notes) as literal ReceiptLine text: special characters escaped, one line.
 * Every line or control character (C0, DEL, C1 with NEL U+0085, the line and paragraph
 * separators U+2028/U+2029) is a space: ReceiptLine splits lines on more than \n and a note
 * cut there lost its rest, so an allergy could vanish from the ticket. Invisible format
 * characters (bidi overrides, zero-width) are dropped so nothing prints reordered or hidden.
 */
export function literal(text: string): string {
  return text
    .replace(/\p{Cf}+/gu, '')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(SPECIAL, (ch) => `\\${ch}`)
    .trim();
}
