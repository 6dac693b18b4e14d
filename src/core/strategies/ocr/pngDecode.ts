/**
 * A small PNG reader: enough to see a screenshot's pixels as grey levels (vision_ocr's check
 * that an image is only text). Non-interlaced PNGs of every colour type and bit depth; anything
 * else (interlaced, corrupt, another format) gives undefined and the image passes through.
 */
import { inflateSync } from 'node:zlib';

export interface GreyImage {
  readonly width: number;
  readonly height: number;
  /** One byte per pixel, 0 black to 255 white, row by row; transparent pixels count as white. */
  readonly grey: Uint8Array;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
/** Larger images are not read (a 40-megapixel screenshot is not a screenshot of text to swap). */
const MAX_PIXELS = 40_000_000;

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length > 8 && SIGNATURE.every((value, index) => bytes[index] === value);
}

export function decodePng(bytes: Uint8Array): GreyImage | undefined {
  if (!isPng(bytes)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let colorType = 0;
  let palette: Uint8Array | undefined;
  let alphaTable: Uint8Array | undefined;
  const data: Uint8Array[] = [];
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const start = offset + 8;
    const body = bytes.subarray(start, start + length);
    offset += 12 + length;
    if (type === 'IHDR') {
      if (length < 13) return undefined;
      width = view.getUint32(start);
      height = view.getUint32(start + 4);
      depth = body[8]!;
      colorType = body[9]!;
      if (body[12] !== 0) return undefined;
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') alphaTable = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
  }
  const channels = ({ 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as Record<number, number>)[colorType];
  if (!channels || width === 0 || height === 0 || width * height > MAX_PIXELS || data.length === 0) return undefined;
  let raw: Uint8Array;
  try {
    raw = inflateSync(Buffer.concat(data));
  } catch {
    return undefined;
  }
  const bitsPerPixel = channels * depth;
  const stride = Math.ceil((width * bitsPerPixel) / 8);
  const step = Math.max(1, bitsPerPixel / 8);
  if (raw.length < (stride + 1) * height) return undefined;
  const rows = unfilter(raw, stride, height, step);
  const grey = new Uint8Array(width * height);
  const sample = (row: Uint8Array, index: number): number => {
    if (depth === 8) return row[index]!;
    if (depth === 16) return row[index * 2]!;
    const perByte = 8 / depth;
    const byte = row[Math.floor(index / perByte)]!;
    const shift = 8 - depth * ((index % perByte) + 1);
    return (byte >> shift) & ((1 << depth) - 1);
  };
  const scale = depth < 8 && colorType !== 3 ? 255 / ((1 << depth) - 1) : 1;
  for (let y = 0; y < height; y++) {
    const row = rows[y]!;
    for (let x = 0; x < width; x++) {
      let r: number;
      let g: number;
      let b: number;
      let alpha = 255;
      if (colorType === 3) {
        const index = sample(row, x);
        r = palette?.[index * 3] ?? 0;
        g = palette?.[index * 3 + 1] ?? 0;
        b = palette?.[index * 3 + 2] ?? 0;
        alpha = alphaTable?.[index] ?? 255;
      } else {
        const base = x * channels;
        r = sample(row, base) * scale;
        g = channels >= 3 ? sample(row, base + 1) * scale : r;
        b = channels >= 3 ? sample(row, base + 2) * scale : r;
        if (channels === 2 || channels === 4) alpha = sample(row, base + channels - 1) * scale;
      }
      const level = 0.299 * r + 0.587 * g + 0.114 * b;
      grey[y * width + x] = Math.round((level * alpha + 255 * (255 - alpha)) / 255);
    }
  }
  return { width, height, grey };
}

/** Undoes PNG's per-row filters (None, Sub, Up, Average, Paeth). */
function unfilter(raw: Uint8Array, stride: number, height: number, step: number): Uint8Array[] {
  const rows: Uint8Array[] = [];
  let previous = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.slice(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= step ? line[i - step]! : 0;
      const up = previous[i]!;
      const upLeft = i >= step ? previous[i - step]! : 0;
      let add = 0;
      if (filter === 1) add = left;
      else if (filter === 2) add = up;
      else if (filter === 3) add = (left + up) >> 1;
      else if (filter === 4) add = paeth(left, up, upLeft);
      line[i] = (line[i]! + add) & 0xff;
    }
    rows.push(line);
    previous = line;
  }
  return rows;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
