/**
 * Format detection remembered per text and hint. Several strategies ask for the format of the
 * same tool output on every request (command_digest, context_compression through
 * cleanContent, the census), and detection scans up to 64k characters with a dozen patterns a
 * line; the answer is a function of the text and the hint, so it is worked out once.
 */
import { detectContentFormat as detectUncached } from './detect';
import type { ContentFormat, ContentHint } from './types';

/** How many distinct texts are remembered; the least recently asked go first. */
const MAX_TEXTS = 4_096;

const formats = new Map<string, Map<string, ContentFormat>>();

/** The format of `text` given `hint` (see `detect.ts`), from memory when this text and hint were seen. */
export function detectContentFormat(text: string, hint: ContentHint = {}): ContentFormat {
  const hintKey = `${hint.command ?? ''}\u0000${hint.path ?? ''}`;
  let byHint = formats.get(text);
  if (byHint) {
    formats.delete(text);
    formats.set(text, byHint);
    const known = byHint.get(hintKey);
    if (known !== undefined) return known;
  } else {
    byHint = new Map();
    formats.set(text, byHint);
    if (formats.size > MAX_TEXTS) formats.delete(formats.keys().next().value as string);
  }
  const format = detectUncached(text, hint);
  byHint.set(hintKey, format);
  return format;
}
