/**
 * Is this image only text? A screenshot of a log, a stack trace or a terminal is: one flat
 * background, and every mark on it belongs to a word the OCR engine read with confidence. A
 * diagram has boxes, lines and arrows between its labels; a chart has axes and bars; a photo
 * has no flat background at all. Those keep their image.
 */
import type { OcrReading } from './ocrEngine';
import type { GreyImage } from './pngDecode';

export interface TextImageThresholds {
  /** Least mean word confidence (0–100). */
  readonly minConfidence: number;
  /** Fewest words read. */
  readonly minWords: number;
  /** Least share of ink pixels that must lie inside the boxes of words read. */
  readonly minInkInsideWords: number;
  /** Least share of pixels that must be the flat background. */
  readonly minBackgroundShare: number;
}

export interface TextImageVerdict {
  readonly textOnly: boolean;
  /** Why not, or `text only`; no image content. */
  readonly reason: string;
  readonly confidence: number;
  readonly words: number;
  readonly inkInsideWords: number;
  readonly backgroundShare: number;
}

/** A pixel this far from the background level is ink. */
const INK_DISTANCE = 64;
/** A pixel this close to the background level is background. */
const BACKGROUND_DISTANCE = 24;
/** Word boxes are tight around the glyphs: accents, underscores and antialiasing sit just outside. */
const BOX_PADDING = 3;

/** The background grey level and the share of pixels at it: cheap, so it runs before any OCR. */
export function flatBackground(image: GreyImage): { level: number; share: number } {
  const histogram = new Uint32Array(256);
  for (const level of image.grey) histogram[level]!++;
  let background = 0;
  let best = -1;
  for (let level = 0; level < 256; level++) {
    let near = 0;
    for (let other = Math.max(0, level - 8); other <= Math.min(255, level + 8); other++) near += histogram[other]!;
    if (near > best) {
      best = near;
      background = level;
    }
  }
  let backgroundPixels = 0;
  for (let level = 0; level < 256; level++) if (Math.abs(level - background) <= BACKGROUND_DISTANCE) backgroundPixels += histogram[level]!;
  return { level: background, share: backgroundPixels / image.grey.length };
}

export function judgeTextImage(image: GreyImage, reading: OcrReading, thresholds: TextImageThresholds): TextImageVerdict {
  const { width, height, grey } = image;
  const { level: background, share: backgroundShare } = flatBackground(image);

  const inWord = new Uint8Array(width * height);
  for (const word of reading.words) {
    if (word.text.trim().length === 0) continue;
    const x0 = Math.max(0, Math.floor(word.box.x0) - BOX_PADDING);
    const x1 = Math.min(width, Math.ceil(word.box.x1) + BOX_PADDING);
    const y0 = Math.max(0, Math.floor(word.box.y0) - BOX_PADDING);
    const y1 = Math.min(height, Math.ceil(word.box.y1) + BOX_PADDING);
    for (let y = y0; y < y1; y++) inWord.fill(1, y * width + x0, y * width + x1);
  }
  let ink = 0;
  let inkInside = 0;
  for (let index = 0; index < grey.length; index++) {
    if (Math.abs(grey[index]! - background) <= INK_DISTANCE) continue;
    ink++;
    if (inWord[index]) inkInside++;
  }
  const inkInsideWords = ink === 0 ? 0 : inkInside / ink;
  const words = reading.words.filter((word) => word.text.trim().length > 0).length;
  const verdict = (textOnly: boolean, reason: string): TextImageVerdict => ({
    textOnly, reason, confidence: Math.round(reading.confidence), words, inkInsideWords: round(inkInsideWords), backgroundShare: round(backgroundShare),
  });
  if (backgroundShare < thresholds.minBackgroundShare) return verdict(false, 'no flat background (a photo or a busy picture)');
  if (words < thresholds.minWords) return verdict(false, `only ${words} words read`);
  if (reading.confidence < thresholds.minConfidence) return verdict(false, `OCR confidence ${Math.round(reading.confidence)} under ${thresholds.minConfidence}`);
  if (inkInsideWords < thresholds.minInkInsideWords) return verdict(false, `${Math.round((1 - inkInsideWords) * 100)}% of the marks are not text (a diagram or a chart)`);
  return verdict(true, 'text only');
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
