/**
 * The one marker format for everything Herald elides, readable by a model and a person:
 *
 *     [herald: 412 lines elided · retrieve hr_k2p4q7m3x9a5b6c1]
 *
 * what was removed and how much, then the handle that gives the original back.
 */

/** Handles are `hr_` and 16 base32 characters (80 bits of an HMAC): short, stable, unguessable. */
export const HANDLE_PATTERN = /hr_[a-z2-7]{16}/;
const MARKER_PATTERN = /\[herald: ([^\]\n]{1,400}?) · retrieve (hr_[a-z2-7]{16})\]/g;

export function formatMarker(summary: string, handle: string): string {
  // A summary never contains a closing bracket or a newline, so the marker parses back unambiguously.
  const clean = summary.replace(/[\]\n\r]/g, ' ').slice(0, 400);
  return `[herald: ${clean} · retrieve ${handle}]`;
}

export interface FoundMarker {
  readonly start: number;
  readonly end: number;
  readonly summary: string;
  readonly handle: string;
}

/** Every well-formed marker in a text, in order. */
export function findMarkers(text: string): FoundMarker[] {
  if (!text.includes('[herald: ')) return [];
  const found: FoundMarker[] = [];
  for (const match of text.matchAll(MARKER_PATTERN)) {
    const start = match.index ?? 0;
    found.push({ start, end: start + match[0].length, summary: match[1] ?? '', handle: match[2] ?? '' });
  }
  return found;
}

export function isHandle(value: string): boolean {
  return new RegExp(`^${HANDLE_PATTERN.source}$`).test(value);
}

/** Counts lines the way a reader does: a trailing newline does not start another line. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}
