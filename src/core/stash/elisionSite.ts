/**
 * Where Herald actually elided. A replacement's text alone cannot tell a real elision from a
 * verbatim copy of it (the model quoting a marker it was shown, a tool printing a saved
 * optimized request), so the pipeline records the position of every replacement it put in a
 * text, and expansion replaces only those. Positions are UTF-16 offsets, as in JavaScript strings.
 */
import { findMarkers } from './marker';

/** One real elision in a text: the replacement standing at [start, start + length). */
export interface ElisionSite {
  /** The stash handle whose replacement stands here. */
  readonly handle: string;
  /** Offset of the replacement in the text. */
  readonly start: number;
  /** Length of the replacement (a handle may have several replacements of different lengths). */
  readonly length: number;
  /** Real elisions inside the original behind this handle, at offsets in that original. */
  readonly nested?: readonly ElisionSite[];
}

/** What alignment needs to know about a handle: its original and every text that stood in for it. */
export interface ElisionSource {
  readonly original: string;
  readonly replacements: readonly string[];
}

/** The stash entries a caller can see synchronously (this process's own elisions). */
export type ElisionLookup = (handle: string) => ElisionSource | undefined;

interface Candidate {
  readonly start: number;
  readonly length: number;
  readonly handle: string;
  readonly original: string;
}

/**
 * The sites of `after`, a text a strategy rewrote from `before` (whose real sites were
 * `beforeSites`), or undefined when `after` is not `before` with some spans replaced by
 * replacements of known handles. A replacement in `after` is a new site when `before` holds
 * its original at the aligned position; it is a copy when `before` holds the replacement
 * itself there (an original can never start with its own marker: the handle is a keyed hash
 * of it). Sites of `before` inside a newly elided span become that site's nested sites; the
 * others move with the text.
 */
export function alignSites(before: string, beforeSites: readonly ElisionSite[], after: string, lookup: ElisionLookup): ElisionSite[] | undefined {
  const candidates = candidatesIn(after, lookup);
  const sites: ElisionSite[] = [];
  const pending = [...beforeSites].sort((a, b) => a.start - b.start);
  let next = 0;
  // Invariant: after[0, afterAt) and before[0, beforeAt) are aligned and every site in them is placed.
  let beforeAt = 0;
  let afterAt = 0;
  const carry = (until: number): boolean => {
    // Sites of `before` that end by `until` move with the unchanged text; one cut in half cannot be placed.
    while (next < pending.length && pending[next]!.start < until) {
      const site = pending[next]!;
      if (site.start + site.length > until) return false;
      sites.push({ ...site, start: site.start - beforeAt + afterAt });
      next++;
    }
    return true;
  };
  for (const candidate of candidates) {
    if (candidate.start < afterAt) continue;
    const beforeStart = beforeAt + (candidate.start - afterAt);
    if (!before.startsWith(candidate.original, beforeStart)) continue;
    if (!sameSpan(after, afterAt, before, beforeAt, candidate.start - afterAt)) return undefined;
    if (!carry(beforeStart)) return undefined;
    const beforeEnd = beforeStart + candidate.original.length;
    const nested: ElisionSite[] = [];
    while (next < pending.length && pending[next]!.start < beforeEnd) {
      const site = pending[next]!;
      if (site.start + site.length > beforeEnd) return undefined;
      nested.push({ ...site, start: site.start - beforeStart });
      next++;
    }
    sites.push({ handle: candidate.handle, start: candidate.start, length: candidate.length, ...(nested.length > 0 ? { nested } : {}) });
    beforeAt = beforeEnd;
    afterAt = candidate.start + candidate.length;
  }
  if (after.length - afterAt !== before.length - beforeAt || !sameSpan(after, afterAt, before, beforeAt, after.length - afterAt)) return undefined;
  if (!carry(before.length)) return undefined;
  return sites;
}

/**
 * Sites guessed from the text alone: every replacement of a known handle standing around its
 * marker counts as real, and so on inside each original. What expansion by text does, so a
 * copy of a real replacement is taken for it; used only where positions are not known.
 * `known` holds the nested sites already guessed per depth and handle (shared by the recursion).
 */
export function guessSites(text: string, lookup: ElisionLookup, maxDepth = 8, known = new Map<string, ElisionSite[]>()): ElisionSite[] {
  if (maxDepth <= 0) return [];
  const sites: ElisionSite[] = [];
  let end = text.length + 1;
  // Right to left, the way expansion goes, so an overlap keeps the later site.
  for (const candidate of candidatesIn(text, lookup).reverse()) {
    if (candidate.start + candidate.length > end) continue;
    // One scan per original, however many copies of its replacement the text holds.
    const key = `${maxDepth}:${candidate.handle}`;
    const nested = known.get(key) ?? guessSites(candidate.original, lookup, maxDepth - 1, known);
    known.set(key, nested);
    sites.push({ handle: candidate.handle, start: candidate.start, length: candidate.length, ...(nested.length > 0 ? { nested } : {}) });
    end = candidate.start;
  }
  return sites.reverse();
}

/** Moves sites by `offset` (a site list of a text that now starts `offset` later). */
export function shiftSites(sites: readonly ElisionSite[], offset: number): ElisionSite[] {
  return sites.map((site) => ({ ...site, start: site.start + offset }));
}

/** Every place a replacement of a known handle stands around its marker, by start then longest first. */
function candidatesIn(text: string, lookup: ElisionLookup): Candidate[] {
  const candidates: Candidate[] = [];
  for (const marker of findMarkers(text)) {
    const source = lookup(marker.handle);
    if (!source) continue;
    for (const replacement of new Set(source.replacements)) {
      const start = locateReplacement(text, replacement, marker.start, marker.end);
      if (start >= 0) candidates.push({ start, length: replacement.length, handle: marker.handle, original: source.original });
    }
  }
  return candidates.sort((a, b) => a.start - b.start || b.length - a.length);
}

/** Where `replacement` stands in `text` covering the marker at [markerStart, markerEnd), or -1. */
export function locateReplacement(text: string, replacement: string, markerStart: number, markerEnd: number): number {
  let from = Math.max(0, markerEnd - replacement.length);
  while (from <= markerStart) {
    const index = text.indexOf(replacement, from);
    if (index < 0 || index > markerStart) return -1;
    if (index + replacement.length >= markerEnd) return index;
    from = index + 1;
  }
  return -1;
}

function sameSpan(a: string, aStart: number, b: string, bStart: number, length: number): boolean {
  return length === 0 || a.slice(aStart, aStart + length) === b.slice(bStart, bStart + length);
}
