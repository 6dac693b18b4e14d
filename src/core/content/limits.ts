/**
 * Work caps. Cleaners are called on whatever a tool printed, so every one of them must
 * stay linear and bounded: above these sizes the content is returned unchanged rather
 * than risk a slow request.
 */

/** Inputs longer than this (in UTF-16 code units) are never cleaned. */
export const MAX_CLEAN_CHARS = 8_000_000;

/** Lines longer than this are carried verbatim and never run through a pattern. */
export const MAX_PATTERN_LINE_CHARS = 4_000;

/** Content with more NUL or control characters than this share is treated as binary. */
export const MAX_BINARY_SHARE = 0.01;

/** True when the text looks like binary bytes decoded as text (NUL and other control characters). */
export function looksBinary(text: string): boolean {
  const sample = text.length > 65_536 ? text.slice(0, 65_536) : text;
  let control = 0;
  for (let index = 0; index < sample.length; index++) {
    const code = sample.charCodeAt(index);
    if (code === 0 || (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12 && code !== 27)) control++;
  }
  return sample.length > 0 && control / sample.length > MAX_BINARY_SHARE;
}

/** Splits into lines, keeping no terminators; a trailing newline does not add an empty line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Whether the text ended with a newline, so a cleaner can put it back. */
export function trailingNewline(text: string): string {
  return text.endsWith('\n') ? '\n' : '';
}

/** Removes ANSI colour and cursor sequences, which carry no meaning for a model. */
export function stripAnsi(text: string): string {
  if (!text.includes('\u001b')) return text;
  return text.replace(/\u001b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]|\u001b\][^\u0007\u001b]{0,512}(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g, '');
}

/** Keeps what a terminal would show of a line rewritten with carriage returns (progress bars). */
export function lastCarriageSegment(line: string): string {
  if (!line.includes('\r')) return line;
  const segments = line.split('\r').filter((segment) => segment.length > 0);
  return segments.length === 0 ? '' : segments[segments.length - 1]!;
}
