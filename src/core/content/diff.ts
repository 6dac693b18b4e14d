/**
 * Unified diffs: file headers, hunk headers and every changed line stay; a long run of
 * unchanged context inside a hunk keeps its first and last lines around the changes and
 * the middle becomes one `… N unchanged lines` line.
 */
import { splitLines, trailingNewline } from './limits';
import { cleanResult, type CleanResult } from './types';
import { checkDeadline } from '../pipeline/deadline';

/** Context lines kept next to each change. */
const CONTEXT_KEPT = 3;

/** Trims long unchanged context; everything else in the diff is kept as it is. */
export function cleanDiff(text: string): CleanResult {
  const lines = splitLines(text);
  const output: string[] = [];
  let trimmed = 0;
  let context: string[] = [];
  let inHunk = false;
  let changedBefore = false;
  const flushContext = (changeFollows: boolean): void => {
    const keepHead = changedBefore ? CONTEXT_KEPT : 0;
    const keepTail = changeFollows ? CONTEXT_KEPT : 0;
    if (context.length > keepHead + keepTail + 1) {
      output.push(...context.slice(0, keepHead));
      const elided = context.length - keepHead - keepTail;
      output.push(` … ${elided} unchanged line${elided === 1 ? '' : 's'}`);
      trimmed += elided;
      output.push(...context.slice(context.length - keepTail));
    } else {
      output.push(...context);
    }
    context = [];
  };
  for (const line of lines) {
    checkDeadline();
    if (line.startsWith('@@')) {
      if (inHunk) flushContext(false);
      inHunk = true;
      changedBefore = false;
      output.push(line);
      continue;
    }
    if (inHunk && (line.startsWith(' ') || line === '')) {
      context.push(line);
      continue;
    }
    if (inHunk && (line.startsWith('+') || line.startsWith('-')) && !line.startsWith('+++ ') && !line.startsWith('--- ')) {
      flushContext(true);
      changedBefore = true;
      output.push(line);
      continue;
    }
    if (inHunk && line.startsWith('\\')) {
      flushContext(true);
      output.push(line);
      continue;
    }
    // Anything else (a new file header, commit text) ends the hunk.
    if (inHunk) flushContext(false);
    inHunk = false;
    output.push(line);
  }
  if (inHunk) flushContext(false);
  return cleanResult(text, output.join('\n') + trailingNewline(text), 'diff', trimmed > 0 ? [`${trimmed} unchanged context lines`] : []);
}
