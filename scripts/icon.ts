// Draws the bundle's icon (icon.png, 512x512): viewer-count bars with one suspicious spike.
// `node dist/scripts/icon.js` rewrites it; plain zlib, no image library.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

export const SIZE = 512;
/** The drawing below is laid out on a 256-unit grid, scaled to SIZE. */
const GRID = 256;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer) => {
  let c = 0xffffffff;
  for (const byte of buf) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};

type Rgba = [number, number, number, number];

/** The icon's pixel at (px, py). */
function pixel(px: number, py: number): Rgba {
  const x = ((px + 0.5) * GRID) / SIZE;
  const y = ((py + 0.5) * GRID) / SIZE;
  // Rounded square, vertical gradient from indigo to violet.
  const r = 48;
  const cx = Math.min(Math.max(x, r), GRID - r);
  const cy = Math.min(Math.max(y, r), GRID - r);
  if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return [0, 0, 0, 0];
  const t = y / GRID;
  let color: Rgba = [Math.round(49 + 60 * t), Math.round(46 - 6 * t), Math.round(129 + 88 * t), 255];
  // Five viewer-count bars on a baseline; the fourth spikes.
  const heights = [62, 84, 72, 156, 78];
  heights.forEach((h, i) => {
    const left = 42 + i * 36;
    if (x >= left && x < left + 26 && y <= 204 && y > 204 - h)
      color = i === 3 ? [251, 113, 133, 255] : [255, 255, 255, 235];
  });
  if (y >= 206 && y < 212 && x >= 36 && x < 220) color = [255, 255, 255, 160];
  return color;
}

export function iconPng(): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < SIZE; y++) {
    const row = Buffer.alloc(1 + SIZE * 4);
    for (let x = 0; x < SIZE; x++) Buffer.from(pixel(x, y)).copy(row, 1 + x * 4);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(SIZE, 0);
  ihdr.writeUInt32BE(SIZE, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(fileURLToPath(new URL('../../icon.png', import.meta.url)), iconPng());
}
