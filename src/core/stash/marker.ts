/**
 * The one marker format for everything Herald elides, readable by a model and a person:
 *
 *     [herald: 412 lines elided · retrieve hr_k2p4q7m3x9a5b6c1]
 *
 * what was removed and how much, then the handle that gives the original back. Where the model
 * has no way to retrieve (`herald serve --retrieve-rounds 0`), the request it gets carries the
 * same marker without the promise, `[herald: 412 lines elided · hr_k2p4q7m3x9a5b6c1]`
 * ({@link withoutRetrievePromise}): the handle still names the original for a person.
 */

/** Handles are `hr_` and 16 base32 characters (80 bits of an HMAC): short, stable, unguessable. */
export const HANDLE_PATTERN = /hr_[a-z2-7]{16}/;
const MARKER_PATTERN = /\[herald: ([^\]\n]{1,400}?) · (retrieve )?(hr_[a-z2-7]{16})\]/g;

export function formatMarker(summary: string, handle: string): string {
  // A summary never contains a closing bracket or a newline, so the marker parses back unambiguously.
  const clean = summary.replace(/[\]\n\r]/g, ' ').slice(0, 400);
  return `[herald: ${clean} · retrieve ${handle}]`;
}

/** The text with every marker's "retrieve" promise taken out (the handle stays); the same string when it has none. */
export function withoutRetrievePromise(text: string): string {
  if (!text.includes(' · retrieve hr_')) return text;
  return text.replace(MARKER_PATTERN, (whole: string, summary: string, promise: string | undefined, handle: string) => (promise ? `[herald: ${summary} · ${handle}]` : whole));
}

export interface FoundMarker {
  readonly start: number;
  readonly end: number;
  readonly summary: string;
  readonly handle: string;
  /** Set on a marker written without the retrieve promise (see {@link withoutRetrievePromise}). */
  readonly promiseless?: true;
}

/** Every well-formed marker in a text, in order. */
export function findMarkers(text: string): FoundMarker[] {
  if (!text.includes('[herald: ')) return [];
  const found: FoundMarker[] = [];
  for (const match of text.matchAll(MARKER_PATTERN)) {
    const start = match.index ?? 0;
    found.push({ start, end: start + match[0].length, summary: match[1] ?? '', handle: match[3] ?? '', ...(match[2] ? {} : { promiseless: true }) });
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
