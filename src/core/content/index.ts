/**
 * Shared content cleaners: format detection, then one cleaner per format. Used by the
 * strategies (context_compression, command_digest…) and the filter API. Every cleaner is
 * deterministic and bounded; plain text is never rewritten; nothing here throws.
 */
import { cleanedOnce } from './cleanMemo';
import { cleanDiff } from './diff';
import { detectContentFormat } from './detectMemo';
import { cleanFileListing } from './fileListing';
import { cleanGrep } from './grep';
import { cleanHtml } from './html';
import { cleanJson } from './json';
import { looksBinary, MAX_CLEAN_CHARS } from './limits';
import { cleanLog } from './logs';
import { cleanStackTrace } from './stackTrace';
import { cleanTestOutput } from './testOutput';
import { unchanged, type CleanOptions, type CleanResult, type ContentFormat } from './types';

export type { CleanOptions, CleanResult, ContentFormat, ContentHint } from './types';
export { detectContentFormat } from './detectMemo';
export { cleaningsRemembered, forgetCleanings } from './cleanMemo';
export { cleanDiff } from './diff';
export { cleanFileListing } from './fileListing';
export { cleanGrep } from './grep';
export { cleanHtml } from './html';
export { cleanJson } from './json';
export { cleanLog } from './logs';
export { cleanStackTrace } from './stackTrace';
export { cleanTestOutput } from './testOutput';
export { bookkeepingKey, isSevereLine } from './bookkeeping';

/** Cleans content by format. Deterministic; 'text' comes back unchanged; never throws. */
export function cleanContent(text: string, options: CleanOptions = {}): CleanResult {
  let format: ContentFormat = options.format ?? 'text';
  try {
    if (typeof text !== 'string') return unchanged(String(text), 'text');
    if (text.length === 0 || text.length > MAX_CLEAN_CHARS || looksBinary(text)) return unchanged(text, options.format ?? 'text');
    format = options.format ?? detectContentFormat(text, { command: options.command, path: options.path });
    const as = format;
    // Worked out once per text, format and question (cleanMemo.ts): one request cleans a log more than once.
    return cleanedOnce(text, as, options, () => {
      const result = cleanAs(text, as, options);
      // A cleaner never hands back more than it was given.
      return !result.changed || result.text.length >= text.length ? unchanged(text, as) : result;
    });
  } catch {
    return unchanged(text, format);
  }
}

function cleanAs(text: string, format: ContentFormat, options: CleanOptions): CleanResult {
  switch (format) {
    case 'html':
      return cleanHtml(text);
    case 'json':
      return cleanJson(text, { question: options.question, rankRows: options.rankRows });
    case 'test-output':
      return cleanTestOutput(text, { question: options.question });
    case 'log':
      return cleanLog(text);
    case 'file-listing':
      return cleanFileListing(text);
    case 'diff':
      return cleanDiff(text);
    case 'stack-trace':
      return cleanStackTrace(text);
    case 'grep':
      return cleanGrep(text, { question: options.question });
    case 'text':
      return unchanged(text, 'text');
  }
}
