/**
 * Test images for vision_ocr (imported by tests only), drawn here rather than shipped: text
 * rendered from a system TrueType font (DejaVu, part of the machine image) with opentype.js
 * outlines and an antialiased scanline fill, a box-and-arrow diagram, and a photo-like
 * picture; each written as a real PNG.
 */
import * as fs from 'node:fs';
import { deflateSync } from 'node:zlib';
import { parse, type Font, type PathCommand } from 'opentype.js';

export const MONO_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';

export function hasTestFont(): boolean {
  return fs.existsSync(MONO_FONT);
}

/** A canvas of grey levels (0 black, 255 white). */
export class GreyCanvas {
  readonly pixels: Uint8Array;
  constructor(readonly width: number, readonly height: number, background = 255) {
    this.pixels = new Uint8Array(width * height).fill(background);
  }

  /** Blends `level` into the pixel with coverage 0–1. */
  paint(x: number, y: number, level: number, coverage = 1): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || coverage <= 0) return;
    const index = y * this.width + x;
    this.pixels[index] = Math.round(this.pixels[index]! * (1 - coverage) + level * coverage);
  }

  rectangle(x0: number, y0: number, x1: number, y1: number, level: number, thickness = 2): void {
    for (let t = 0; t < thickness; t++) {
      this.line(x0, y0 + t, x1, y0 + t, level);
      this.line(x0, y1 - t, x1, y1 - t, level);
      this.line(x0 + t, y0, x0 + t, y1, level);
      this.line(x1 - t, y0, x1 - t, y1, level);
    }
  }

  line(x0: number, y0: number, x1: number, y1: number, level: number): void {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    for (let step = 0; step <= steps; step++) this.paint(Math.round(x0 + ((x1 - x0) * step) / steps), Math.round(y0 + ((y1 - y0) * step) / steps), level);
  }

  /** Fills the text's glyph outlines; 4×4 supersampling gives antialiased edges like a real screen. */
  text(font: Font, text: string, x: number, baseline: number, size: number, level: number): void {
    const polygons = flatten(font.getPath(text, x, baseline, size).commands);
    if (polygons.length === 0) return;
    const samples = 4;
    const top = Math.max(0, Math.floor(baseline - size * 1.1));
    const bottom = Math.min(this.height, Math.ceil(baseline + size * 0.4));
    for (let y = top; y < bottom; y++) {
      const coverage = new Float32Array(this.width);
      for (let sub = 0; sub < samples; sub++) {
        const sampleY = y + (sub + 0.5) / samples;
        for (const [start, end] of spans(polygons, sampleY)) {
          for (let sx = Math.max(0, Math.floor(start * samples)); sx < Math.min(this.width * samples, Math.ceil(end * samples)); sx++) {
            const center = (sx + 0.5) / samples;
            if (center >= start && center < end) coverage[Math.floor(sx / samples)]! += 1 / (samples * samples);
          }
        }
      }
      for (let px = 0; px < this.width; px++) this.paint(px, y, level, Math.min(1, coverage[px]!));
    }
  }

  png(): Buffer {
    return encodePng(this.width, this.height, 1, this.pixels);
  }
}

let monoFont: Font | undefined;

export function loadMonoFont(): Font {
  if (!monoFont) {
    const bytes = fs.readFileSync(MONO_FONT);
    monoFont = parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  return monoFont;
}

/** Lines of text as a terminal screenshot would show them. */
export function textScreenshot(lines: readonly string[], options: { size?: number; dark?: boolean } = {}): Buffer {
  const font = loadMonoFont();
  const size = options.size ?? 18;
  const lineHeight = Math.round(size * 1.5);
  const width = Math.ceil(Math.max(...lines.map((line) => font.getAdvanceWidth(line, size))) + 40);
  const canvas = new GreyCanvas(width, lines.length * lineHeight + 30, options.dark ? 30 : 255);
  lines.forEach((line, index) => canvas.text(font, line, 20, 20 + (index + 1) * lineHeight - Math.round(size * 0.4), size, options.dark ? 225 : 20));
  return canvas.png();
}

/** Three labelled boxes joined by arrows: text, but mostly not text. */
export function boxDiagram(): Buffer {
  const font = loadMonoFont();
  const canvas = new GreyCanvas(760, 260);
  const labels = ['Client', 'Gateway', 'Database'];
  labels.forEach((label, index) => {
    const x = 30 + index * 250;
    canvas.rectangle(x, 80, x + 190, 170, 30, 3);
    canvas.text(font, label, x + 30, 133, 22, 20);
    if (index < labels.length - 1) {
      canvas.line(x + 190, 125, x + 250, 125, 30);
      canvas.line(x + 240, 115, x + 250, 125, 30);
      canvas.line(x + 240, 135, x + 250, 125, 30);
    }
  });
  return canvas.png();
}

/** A photo-like picture: smooth colour gradients with grain, no flat background (RGB). */
export function photoLike(width = 320, height = 240): Buffer {
  const pixels = new Uint8Array(width * height * 3);
  let seed = 7;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const index = (y * width + x) * 3;
      const grain = (random() - 0.5) * 40;
      pixels[index] = clampByte(120 + 100 * Math.sin(x / 37) + grain);
      pixels[index + 1] = clampByte(90 + 80 * Math.cos(y / 23) + grain);
      pixels[index + 2] = clampByte(60 + ((x + y) / (width + height)) * 150 + grain);
    }
  }
  return encodePng(width, height, 3, pixels);
}

/** A PNG of 8-bit grey (1 channel) or RGB (3 channels) pixels, rows filtered with None. */
export function encodePng(width: number, height: number, channels: 1 | 3, pixels: Uint8Array): Buffer {
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = channels === 1 ? 0 : 2;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function clampByte(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}

type Point = [number, number];

/** Glyph outlines as closed polygons (curves cut into short segments). */
function flatten(commands: readonly PathCommand[]): Point[][] {
  const polygons: Point[][] = [];
  let current: Point[] = [];
  let last: Point = [0, 0];
  for (const command of commands) {
    if (command.type === 'M') {
      if (current.length > 2) polygons.push(current);
      current = [[command.x!, command.y!]];
    } else if (command.type === 'L') {
      current.push([command.x!, command.y!]);
    } else if (command.type === 'Q') {
      for (let t = 1; t <= 8; t++) {
        const s = t / 8;
        current.push([(1 - s) ** 2 * last[0] + 2 * (1 - s) * s * command.x1! + s * s * command.x!, (1 - s) ** 2 * last[1] + 2 * (1 - s) * s * command.y1! + s * s * command.y!]);
      }
    } else if (command.type === 'C') {
      for (let t = 1; t <= 10; t++) {
        const s = t / 10;
        const a = (1 - s) ** 3;
        const b = 3 * (1 - s) ** 2 * s;
        const c = 3 * (1 - s) * s * s;
        const d = s ** 3;
        current.push([a * last[0] + b * command.x1! + c * command.x2! + d * command.x!, a * last[1] + b * command.y1! + c * command.y2! + d * command.y!]);
      }
    } else if (command.type === 'Z') {
      if (current.length > 2) polygons.push(current);
      current = [];
    }
    if (command.x !== undefined && command.y !== undefined) last = [command.x, command.y];
  }
  if (current.length > 2) polygons.push(current);
  return polygons;
}

/** Inside spans of a horizontal line through the polygons, by the nonzero winding rule. */
function spans(polygons: readonly Point[][], y: number): [number, number][] {
  const crossings: { x: number; winding: number }[] = [];
  for (const polygon of polygons) {
    for (let index = 0; index < polygon.length; index++) {
      const [x0, y0] = polygon[index]!;
      const [x1, y1] = polygon[(index + 1) % polygon.length]!;
      if (y0 === y1 || y < Math.min(y0, y1) || y >= Math.max(y0, y1)) continue;
      crossings.push({ x: x0 + ((y - y0) * (x1 - x0)) / (y1 - y0), winding: y1 > y0 ? 1 : -1 });
    }
  }
  crossings.sort((a, b) => a.x - b.x);
  const out: [number, number][] = [];
  let winding = 0;
  for (let index = 0; index < crossings.length; index++) {
    const before = winding;
    winding += crossings[index]!.winding;
    if (before === 0 && winding !== 0) out.push([crossings[index]!.x, crossings[index]!.x]);
    else if (before !== 0 && winding === 0) out[out.length - 1]![1] = crossings[index]!.x;
  }
  return out;
}
