import { PrinterEmulator } from './emulator.ts';

/**
 * Stand-in printers for a demo hub: `npx tsx printers/run-emulator.ts 9100 9101 9102`.
 * Prints each received document's readable text (control codes dropped) to stdout.
 */
const ports = process.argv.slice(2).map(Number);
if (ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
  console.error('usage: run-emulator.ts <port> [port…]');
  process.exit(2);
}
const readable = (b: Buffer) =>
  b
    .toString('latin1')
    // ESC/GS/FS sequences carry parameter bytes; dropping the control bytes leaves the text legible enough
    .replace(/[\x00-\x09\x0b-\x1f\x7f]/g, '');

for (const port of ports) {
  const emu = await PrinterEmulator.start({ port });
  let seen = 0;
  setInterval(() => {
    const prints = emu.prints();
    for (; seen < prints.length; seen++) console.log(`--- printer :${port}, document ${seen + 1} ---\n${readable(prints[seen])}`);
  }, 200);
  console.log(`printer emulator listening on 127.0.0.1:${port}`);
}
