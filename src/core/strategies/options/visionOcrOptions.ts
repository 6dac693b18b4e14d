/** The options of vision_ocr: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const VISION_OCR_OPTIONS = z.object({
  minConfidence: z.number().int().min(0).default(80).describe('Least mean OCR word confidence (0–100) for a swap.'),
  minWords: z.number().int().min(0).default(3).describe('Fewest words an image must hold to be swapped.'),
  minInkInsideWords: z.number().min(0).max(1).default(0.9).describe('Least share of the image\'s marks that must lie inside words read (0–1).'),
  minBackgroundShare: z.number().min(0).max(1).default(0.5).describe('Least share of pixels that must be one flat background (0–1).'),
  maxImages: z.number().int().min(0).default(4).describe('Most images read per request (each takes about a second).'),
  includeFresh: z.boolean().default(false).describe('Also swap images in the current turn\'s fresh input.'),
}).describe('Text-only screenshots in history become their text (Tesseract, local, English model shipped); diagrams and photos pass untouched.');
