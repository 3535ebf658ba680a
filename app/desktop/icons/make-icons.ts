// Draws the app's icons (a plate seen from above: a ring on a terracotta square) as PNGs,
// with no image library: `node --import tsx app/desktop/icons/make-icons.ts`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

type RGBA = [number, number, number, number];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export function png(size: number, pixel: (x: number, y: number) => RGBA): Buffer {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) raw.set(pixel(x, y), y * (size * 4 + 1) + 1 + x * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** The plate: a light ring on a rounded terracotta square; `mono` is black on transparent (macOS menu bar template). */
function plate(size: number, mono = false) {
  const c = (size - 1) / 2;
  const corner = size * 0.18;
  return (x: number, y: number): RGBA => {
    const dx = Math.max(Math.abs(x - c) - (c - corner), 0);
    const dy = Math.max(Math.abs(y - c) - (c - corner), 0);
    const inSquare = Math.hypot(dx, dy) <= corner;
    const r = Math.hypot(x - c, y - c) / size;
    const ring = r > 0.24 && r < 0.36;
    const dot = r < 0.1;
    if (mono) return ring || dot ? [0, 0, 0, 255] : [0, 0, 0, 0];
    if (!inSquare) return [0, 0, 0, 0];
    return ring || dot ? [250, 243, 232, 255] : [196, 90, 58, 255];
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  fs.writeFileSync(path.join(dir, 'icon.png'), png(512, plate(512)));
  fs.writeFileSync(path.join(dir, 'tray.png'), png(32, plate(32)));
  fs.writeFileSync(path.join(dir, 'trayTemplate.png'), png(16, plate(16, true)));
  fs.writeFileSync(path.join(dir, 'trayTemplate@2x.png'), png(32, plate(32, true)));
}
