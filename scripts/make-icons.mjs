#!/usr/bin/env node
// Draws the playground's app icons (web/playground/public/): icon.svg and PNGs of 192 and 512
// pixels, plus a maskable 512 (the motif inside the safe circle, the colour to the edges).
// One drawing, a tic-tac-toe grid with an X and an O, written as SVG and rasterized here
// (4x4 supersampling, PNG encoded with node's zlib): no image tool, no download. The files are
// committed; run this again only to change the drawing: node scripts/make-icons.mjs
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'web', 'playground', 'public');

const ACCENT = [0x2f, 0x5b, 0xd3];
const WHITE = [0xff, 0xff, 0xff];
const GOLD = [0xff, 0xc8, 0x57];

/**
 * The drawing in a 100x100 box, painted in order: { kind, colour, ... }. `inset` shrinks the
 * motif towards the centre (a maskable icon keeps it inside the middle 80%).
 */
function shapes(inset, rounded) {
  const s = (v) => 50 + (v - 50) * inset;
  const w = 4.5 * inset;
  const grid = [];
  for (const v of [38, 62]) {
    grid.push({ kind: 'line', colour: WHITE, a: [s(v), s(16)], b: [s(v), s(84)], w });
    grid.push({ kind: 'line', colour: WHITE, a: [s(16), s(v)], b: [s(84), s(v)], w });
  }
  return [
    { kind: 'rect', colour: ACCENT, r: rounded ? 18 : 0 },
    ...grid,
    { kind: 'line', colour: GOLD, a: [s(19), s(19)], b: [s(33), s(33)], w },
    { kind: 'line', colour: GOLD, a: [s(33), s(19)], b: [s(19), s(33)], w },
    { kind: 'ring', colour: WHITE, c: [s(74), s(74)], r: 7.5 * inset, w },
    { kind: 'line', colour: GOLD, a: [s(43), s(43)], b: [s(57), s(57)], w },
    { kind: 'line', colour: GOLD, a: [s(57), s(43)], b: [s(43), s(57)], w },
  ];
}

const hex = (c) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

function svg(list) {
  const body = list.map((p) => {
    if (p.kind === 'rect') return `<rect width="100" height="100" rx="${p.r}" fill="${hex(p.colour)}"/>`;
    if (p.kind === 'line') return `<line x1="${p.a[0]}" y1="${p.a[1]}" x2="${p.b[0]}" y2="${p.b[1]}" stroke="${hex(p.colour)}" stroke-width="${p.w}" stroke-linecap="round"/>`;
    return `<circle cx="${p.c[0]}" cy="${p.c[1]}" r="${p.r}" fill="none" stroke="${hex(p.colour)}" stroke-width="${p.w}"/>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${body.join('')}</svg>\n`;
}

/** Whether the point (in the 100-box) is inside the shape. */
function inside(p, x, y) {
  if (p.kind === 'rect') {
    const r = p.r;
    const dx = Math.max(r - x, x - (100 - r), 0);
    const dy = Math.max(r - y, y - (100 - r), 0);
    return x >= 0 && x <= 100 && y >= 0 && y <= 100 && dx * dx + dy * dy <= r * r;
  }
  if (p.kind === 'line') {
    const [ax, ay] = p.a;
    const [bx, by] = p.b;
    const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
    return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))) <= p.w / 2;
  }
  return Math.abs(Math.hypot(x - p.c[0], y - p.c[1]) - p.r) <= p.w / 2;
}

/** RGBA pixels of the drawing at size x size. */
function raster(list, size) {
  const px = Buffer.alloc(size * size * 4);
  const N = 4;
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const acc = [0, 0, 0, 0];
      for (let sj = 0; sj < N; sj++) {
        for (let si = 0; si < N; si++) {
          const x = ((i + (si + 0.5) / N) / size) * 100;
          const y = ((j + (sj + 0.5) / N) / size) * 100;
          let colour = null;
          for (const p of list) if (inside(p, x, y)) colour = p.colour;
          if (colour) {
            acc[0] += colour[0];
            acc[1] += colour[1];
            acc[2] += colour[2];
            acc[3] += 255;
          }
        }
      }
      const k = (j * size + i) * 4;
      const covered = acc[3] / 255;
      for (let c = 0; c < 3; c++) px[k + c] = covered ? Math.round(acc[c] / covered) : 0;
      px[k + 3] = Math.round(acc[3] / (N * N));
    }
  }
  return px;
}

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
function crc32(buf) {
  let c = -1;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(px, size) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let j = 0; j < size; j++) px.copy(rows, j * (size * 4 + 1) + 1, j * size * 4, (j + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

fs.mkdirSync(out, { recursive: true });
const icon = shapes(1, true);
fs.writeFileSync(path.join(out, 'icon.svg'), svg(icon));
for (const size of [192, 512]) fs.writeFileSync(path.join(out, `icon-${size}.png`), png(raster(icon, size), size));
fs.writeFileSync(path.join(out, 'icon-maskable-512.png'), png(raster(shapes(0.72, false), 512), 512));
console.log(`icons written to ${path.relative(root, out)}/`);
