/**
 * Format detection remembered per text and hint. Several strategies ask for the format of the
 * same tool output on every request (command_digest, context_compression through
 * cleanContent, the census), and detection scans up to 64k characters with a dozen patterns a
 * line; the answer is a function of the text and the hint, so it is worked out once.
 */
import { formatFromHint, formatFromShape } from './detect';
import type { ContentFormat, ContentHint } from './types';

/** How many distinct texts are remembered; the least recently asked go first. */
const MAX_TEXTS = 4_096;

const formats = new Map<string, Map<string, ContentFormat>>();

/**
 * The format of `text` given `hint` (see `detect.ts`), from memory when this text and hint were
 * seen. A hint that does not settle the format leaves it to the shape, which is the same with
 * or without the hint: it is worked out once for both (command_digest asks with and without).
 */
export function detectContentFormat(text: string, hint: ContentHint = {}): ContentFormat {
  const hinted = hint.command !== undefined || hint.path !== undefined;
  const hintKey = hinted ? `${hint.command ?? ''}\u0000${hint.path ?? ''}` : SHAPE_KEY;
  const known = formatsOf(text).get(hintKey);
  if (known !== undefined) return known;
  const format = hinted ? (formatFromHint(text, hint) ?? detectContentFormat(text)) : formatFromShape(text);
  formatsOf(text).set(hintKey, format);
  return format;
}

/** The key of the format with no hint (the one every hint shares when it settles nothing). */
const SHAPE_KEY = '\u0000';

/** The remembered formats of a text by hint, made the most recently asked. */
function formatsOf(text: string): Map<string, ContentFormat> {
  let byHint = formats.get(text);
  if (byHint) {
    formats.delete(text);
  } else {
    byHint = new Map();
    if (formats.size >= MAX_TEXTS) formats.delete(formats.keys().next().value as string);
  }
  formats.set(text, byHint);
  return byHint;
}
