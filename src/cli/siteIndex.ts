/**
 * Where `herald optimize` put its real elisions, kept in the stash folder so `herald expand`
 * replaces those and nothing else (a quoted copy of a real marker stays a quote). Keyed by a
 * hash of the text's place in the request and the optimized text itself: a text expand has
 * never seen optimized here is unknown, and is expanded by text alone.
 */
import type { ChatRequest } from '../core/chat';
import { sha256, textsOfPart, type RequestElisionSite, type SitesOf, type TextLocation } from '../core/pipeline';
import { findMarkers, type ElisionSite } from '../core/stash';

/** Saved indexes carry this; loading another version is refused loudly. */
export const SITE_INDEX_SCHEMA_VERSION = 1;

/** How many optimized texts are remembered; the least recently recorded go first. */
const DEFAULT_MAX_ENTRIES = 20_000;

export class SiteIndex {
  private readonly entries = new Map<string, readonly ElisionSite[]>();

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  /** Remembers the sites of every text of an optimized request that holds a marker (none is an answer too). */
  record(request: ChatRequest, elisions: readonly RequestElisionSite[]): void {
    const byText = new Map<string, ElisionSite[]>();
    for (const { messageIndex, partIndex, contentIndex, ...site } of elisions) {
      const place = placeOf({ messageIndex, partIndex, contentIndex });
      byText.set(place, [...(byText.get(place) ?? []), site]);
    }
    request.messages.forEach((message, messageIndex) => {
      message.parts.forEach((part, partIndex) => {
        for (const { contentIndex, text } of textsOfPart(part)) {
          const place = placeOf({ messageIndex, partIndex, contentIndex });
          // A text without a marker expands to itself either way: not worth a line in the file.
          if (!byText.has(place) && findMarkers(text).length === 0) continue;
          const key = keyOf(place, text);
          this.entries.delete(key);
          this.entries.set(key, byText.get(place) ?? []);
        }
      });
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** The recorded sites of a text at a place, or undefined when this folder never optimized it. */
  readonly sitesOf: SitesOf = (location, text) => this.entries.get(keyOf(placeOf(location), text));

  get size(): number {
    return this.entries.size;
  }

  toJSON(): { schema: number; entries: [string, readonly ElisionSite[]][] } {
    return { schema: SITE_INDEX_SCHEMA_VERSION, entries: [...this.entries] };
  }

  static fromJSON(value: unknown): SiteIndex {
    const saved = value as { schema?: unknown; entries?: unknown };
    if (saved?.schema !== SITE_INDEX_SCHEMA_VERSION || !Array.isArray(saved.entries)) {
      throw new Error(`Herald: elision site index has schema ${String(saved?.schema)}, expected ${SITE_INDEX_SCHEMA_VERSION}`);
    }
    const index = new SiteIndex();
    for (const entry of saved.entries) {
      if (Array.isArray(entry) && typeof entry[0] === 'string' && Array.isArray(entry[1]) && entry[1].every(isSite)) index.entries.set(entry[0], entry[1] as ElisionSite[]);
    }
    return index;
  }
}

function placeOf(location: TextLocation): string {
  return `${location.messageIndex}.${location.partIndex}.${location.contentIndex}`;
}

function keyOf(place: string, text: string): string {
  return sha256(`${place}\u0000${text}`);
}

/** A site read from disk: the shape expansion relies on, nested sites included. */
function isSite(value: unknown, depth = 0): value is ElisionSite {
  // Nesting deeper than expansion goes is no site Herald wrote (and must not exhaust the stack).
  if (typeof value !== 'object' || value === null || depth > 32) return false;
  const site = value as Partial<Record<keyof ElisionSite, unknown>>;
  return (
    typeof site.handle === 'string' &&
    Number.isInteger(site.start) &&
    Number.isInteger(site.length) &&
    (site.nested === undefined || (Array.isArray(site.nested) && site.nested.every((inner) => isSite(inner, depth + 1))))
  );
}
