/**
 * Puts a cleaner's result in place of a tool output: the cleaned text, then a marker saying
 * what was removed and what was kept, whose handle gives back the original byte for byte.
 */
import type { ToolOutputSegment } from '../../chat/toolOutput';
import type { CleanResult } from '../../content';
import { unwrapTerminal } from '../../content/terminalWrap';
import { countLines } from '../../stash/marker';
import type { SegmentEdits } from './segmentEdits';

/** Longest part of a marker summary listing what a cleaner removed. */
const MAX_SUMMARY_CHARS = 160;

/**
 * Elides a segment in favour of its cleaned form; false when it saves too little. A history
 * rewrite pays one cache write of the new form where a cache read of the old one would have
 * been, so a small trim costs more than it saves: hence the ratio as well as the count.
 */
export function elideCleaned(edits: SegmentEdits, segment: ToolOutputSegment, cleaned: CleanResult, label: string, minimum: { tokens: number; ratio: number }, kept?: string): boolean {
  if (!cleaned.changed || cleaned.text.length >= segment.text.length) return false;
  let what = cleaned.removed.join(', ');
  if (what.length > MAX_SUMMARY_CHARS) what = `${what.slice(0, MAX_SUMMARY_CHARS - 1)}…`;
  const summary = `${label} of ${countLines(segment.text)} lines${what ? `: ${what}` : ''}${kept ? `; kept ${kept}` : ''}`;
  const body = cleaned.text.replace(/\n+$/, '');
  return edits.elide({ segment, summary, render: (marker) => (body.length > 0 ? `${body}\n${marker}` : marker) }, minimum.tokens, minimum.ratio);
}

/**
 * The text a cleaner should read for a segment: a tool's output with rows a terminal hard-wrapped
 * at its width joined back (see `terminalWrap.ts`), so no line is cut mid-message; anything else
 * as it is. The stash keeps the segment's own bytes either way.
 */
export function readableText(segment: Pick<ToolOutputSegment, 'text' | 'source'>): string {
  return segment.source === 'tool_result' ? unwrapTerminal(segment.text).text : segment.text;
}
