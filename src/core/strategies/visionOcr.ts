/**
 * vision_ocr: swaps a text-only screenshot (a log, a stack trace, a terminal) for its text,
 * read by a local OCR engine (Tesseract in WebAssembly, with the English model shipped in an
 * npm package; nothing is downloaded). Images cost hundreds to thousands of tokens on every
 * turn they stay in the conversation; their text costs a fraction of that.
 *
 * Only images that are clearly nothing but text are swapped (flat background, every mark
 * inside a word read with confidence, see `textImageCheck.ts`); diagrams, charts, photos and
 * UI screenshots with icons keep their image. The original image is stashed, as a data URL,
 * behind the marker. Only PNG images carried in the request are read (a URL is never fetched).
 *
 * By default only history images are swapped: the model sees a screenshot whole on the turn
 * it arrives, and reads its text on later turns. The swap is a function of the image's bytes,
 * so the next turn repeats it byte for byte.
 */
import type { z } from 'zod';
import type { ChatMessage, ChatRequest, DataPart, Part, ResultContentPart, TextPart } from '../chat/types';
import { sha256 } from '../pipeline/hash';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { StrategyEnvironment } from './environment';
import { TesseractOcrEngine, type OcrEngine } from './ocr/ocrEngine';
import { booleanOption, numberOption } from './shared/optionReads';
import { decodePng } from './ocr/pngDecode';
import { flatBackground, judgeTextImage, type TextImageThresholds } from './ocr/textImageCheck';
import { describeError } from '../errors';
import { optionDefaults } from '../pipeline/optionSchema';
import { VISION_OCR_OPTIONS } from './options/visionOcrOptions';

export const VISION_OCR_ID = 'vision_ocr';

/** Options of vision_ocr, as its schema in `options/` declares them (type, default, bounds, description). */
export type VisionOcrOptions = Readonly<z.output<typeof VISION_OCR_OPTIONS>>;

export const VISION_OCR_DEFAULTS: VisionOcrOptions = optionDefaults(VISION_OCR_OPTIONS);

/** What was decided for one image, by content hash, so a repeat costs nothing. */
interface ImageVerdict {
  readonly text?: string;
  readonly reason: string;
  /** The engine could not read it (not started, crashed): kept, and said in the decision. */
  readonly failed?: boolean;
}

const MAX_REMEMBERED = 256;

export function createVisionOcr(environment: StrategyEnvironment = {}, engine: OcrEngine = new TesseractOcrEngine(environment.ocr)): Strategy {
  const remembered = new Map<string, ImageVerdict>();
  const reading = new Map<string, Promise<ImageVerdict>>();
  /** The verdict for one image: remembered, being read, or read now. Never throws. */
  const verdictFor = (key: string, image: Uint8Array, thresholds: TextImageThresholds): Promise<ImageVerdict> => {
    const known = remembered.get(key);
    if (known) return Promise.resolve(known);
    let pending = reading.get(key);
    if (!pending) {
      pending = judge(engine, image, thresholds).then((verdict) => {
        remembered.set(key, verdict);
        while (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
        return verdict;
      }, (error: unknown) => ({ reason: `OCR failed: ${describeError(error)}`, failed: true }));
      pending = pending.finally(() => reading.delete(key));
      reading.set(key, pending);
    }
    return pending;
  };
  return {
    id: VISION_OCR_ID,
    defaultEnabled: true,
    kind: 'transform',
    touchesFresh: true,
    defaults: VISION_OCR_DEFAULTS,
    optionSchema: VISION_OCR_OPTIONS,
    async apply(request: ChatRequest, context: StrategyContext): Promise<StrategyResult> {
      const thresholds: TextImageThresholds = {
        minConfidence: numberOption(context.options, VISION_OCR_ID, 'minConfidence', 0),
        minWords: numberOption(context.options, VISION_OCR_ID, 'minWords', 0),
        minInkInsideWords: numberOption(context.options, VISION_OCR_ID, 'minInkInsideWords', 0),
        minBackgroundShare: numberOption(context.options, VISION_OCR_ID, 'minBackgroundShare', 0),
      };
      const maxImages = numberOption(context.options, VISION_OCR_ID, 'maxImages', 0);
      const end = booleanOption(context.options, VISION_OCR_ID, 'includeFresh') ? request.messages.length : context.freshStart;
      const counts = { images: 0, swapped: 0, kept: 0, unread: 0, prefetched: 0, failed: 0 };
      let failure: string | undefined;
      const handles: string[] = [];
      const keyOf = (part: DataPart): string => sha256(`${JSON.stringify(thresholds)}\u0000${part.data}`);

      // Fresh images stay whole this turn; start reading them now so the swap is ready when they become history.
      for (let index = end; index < request.messages.length; index++) {
        for (const part of dataParts(request.messages[index]!)) {
          const image = imageBytes(part);
          if (!image || counts.prefetched >= maxImages) continue;
          counts.prefetched++;
          void verdictFor(keyOf(part), image, thresholds);
        }
      }

      const swap = async (part: DataPart): Promise<TextPart | undefined> => {
        counts.images++;
        const image = imageBytes(part);
        if (!image || counts.swapped + counts.kept >= maxImages || context.signal.aborted) {
          counts.unread++;
          return undefined;
        }
        const verdict = await verdictFor(keyOf(part), image, thresholds);
        if (verdict.failed) {
          counts.failed++;
          failure ??= verdict.reason;
        }
        if (verdict.text === undefined) {
          counts.kept++;
          return undefined;
        }
        const text = verdict.text;
        const elision = context.stash.elide({
          original: dataUrl(part),
          summary: `screenshot read as text (${text.split('\n').length} lines, OCR)`,
          kind: VISION_OCR_ID,
          render: (marker) => `${marker}\n${text}`,
        });
        handles.push(elision.handle);
        counts.swapped++;
        const cacheControl = part.extra?.cache_control;
        return cacheControl === undefined ? { type: 'text', text: elision.replacement } : { type: 'text', text: elision.replacement, extra: { cache_control: cacheControl } };
      };

      let messages: ChatMessage[] | undefined;
      for (let index = context.frozenCount; index < end; index++) {
        const message = request.messages[index]!;
        let parts: Part[] | undefined;
        for (let partIndex = 0; partIndex < message.parts.length; partIndex++) {
          const part = message.parts[partIndex]!;
          let next: Part | undefined;
          if (part.type === 'data') next = await swap(part);
          else if (part.type === 'tool_result') {
            let content: ResultContentPart[] | undefined;
            for (let inner = 0; inner < part.content.length; inner++) {
              const item = part.content[inner]!;
              const text = item.type === 'data' ? await swap(item) : undefined;
              if (!text) continue;
              content ??= [...part.content];
              content[inner] = text;
            }
            if (content) next = { ...part, content };
          }
          if (!next) continue;
          parts ??= [...message.parts];
          parts[partIndex] = next;
        }
        if (!parts) continue;
        messages ??= [...request.messages];
        messages[index] = { ...message, parts };
      }
      // `failed` only when there was a failure, so a healthy decision reads as before.
      const { failed: failedCount, ...healthy } = counts;
      const details = failedCount > 0 ? { ...counts } : healthy;
      // An engine that cannot run is a problem for the host to see, not just an image kept.
      if (failure) context.logger.warn('ocr-failed', `Herald: vision_ocr could not read ${counts.failed} image(s): ${failure}`);
      const failed = failure ? `; ${failure}` : '';
      if (!messages) {
        return { request, action: 'images-kept', reason: counts.images === 0 ? 'no images in history' : `${counts.images} images kept (not text only, not PNG, or over the limit)${failed}`, details };
      }
      return { request: { ...request, messages }, action: 'screenshots-read-as-text', reason: `${counts.swapped} of ${counts.images} images were text only and were swapped for their text${failed}`, handles, details };
    },
  };
}

async function judge(engine: OcrEngine, image: Uint8Array, thresholds: TextImageThresholds): Promise<ImageVerdict> {
  const grey = decodePng(image);
  if (!grey) return { reason: 'not a readable PNG' };
  // A photo has no flat background: no need to spend a second of OCR on it.
  if (flatBackground(grey).share < thresholds.minBackgroundShare) return { reason: 'no flat background (a photo or a busy picture)' };
  const reading = await engine.read(image);
  const verdict = judgeTextImage(grey, reading, thresholds);
  return verdict.textOnly ? { text: reading.text.trim(), reason: verdict.reason } : { reason: verdict.reason };
}

/** Images a message carries, directly or inside tool results. */
function dataParts(message: ChatMessage): DataPart[] {
  const found: DataPart[] = [];
  for (const part of message.parts) {
    if (part.type === 'data') found.push(part);
    else if (part.type === 'tool_result') for (const inner of part.content) if (inner.type === 'data') found.push(inner);
  }
  return found;
}

/** The image's encoded bytes, when the request carries them (base64 or a base64 data URL). */
function imageBytes(part: DataPart): Uint8Array | undefined {
  if (part.encoding === 'base64') return Buffer.from(part.data, 'base64');
  const match = /^data:[^;,]+;base64,(.*)$/s.exec(part.data);
  return match ? Buffer.from(match[1]!, 'base64') : undefined;
}

function dataUrl(part: DataPart): string {
  return part.encoding === 'url' ? part.data : `data:${part.mimeType};base64,${part.data}`;
}
