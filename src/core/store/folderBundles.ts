/**
 * Several entries of the folder store in one file: a run's decisions (the memo writes each
 * decided message under two keys, a cold decision of a long conversation some hundreds) are
 * written as one file and linked under each entry's name, instead of a file each. Creating a file
 * costs many times what linking one does (on this project's machine 20 to 400 µs against about
 * 25), and the reader of any one name reads the few it needs from the bundle.
 *
 * A bundle is the mark, then JSON: each distinct value once, and each key with the index of its
 * value. Nothing else the store writes starts with the mark: a value that starts with a NUL is
 * written after {@link ESCAPE_MARK} (see {@link fileText}) and read back without it.
 */

/** What a bundle file starts with (a NUL first: no JSON text does). */
export const BUNDLE_MARK = '\u0000herald-bundle 1\n';

/** Most characters of values in one bundle: past it, a group is split, so a reader of one entry never reads much more. */
export const BUNDLE_MAX_CHARS = 256 * 1024;

export interface BundledEntry {
  readonly key: string;
  readonly value: string;
}

/** The text of a bundle holding `entries` (each value once, however many keys share it). */
export function encodeBundle(entries: readonly BundledEntry[]): string {
  const values: string[] = [];
  const indexes = new Map<string, number>();
  const keys: [string, number][] = [];
  for (const { key, value } of entries) {
    let index = indexes.get(value);
    if (index === undefined) {
      index = values.push(value) - 1;
      indexes.set(value, index);
    }
    keys.push([key, index]);
  }
  return BUNDLE_MARK + JSON.stringify({ keys, values });
}

/** What a file holding one value that starts with a NUL begins with, the value after it: no such value is taken for a bundle. */
export const ESCAPE_MARK = '\u0000herald-value 1\n';

/** The text a file holding `value` alone gets: the value, after {@link ESCAPE_MARK} when it starts with a NUL as both marks do. */
export function fileText(value: string): string {
  return value.startsWith('\u0000') ? ESCAPE_MARK + value : value;
}

/** The value a file holding one value has, from its text ({@link fileText} undone). */
export function valueOfText(text: string): string {
  return text.startsWith(ESCAPE_MARK) ? text.slice(ESCAPE_MARK.length) : text;
}

/** Whether a file's text is a bundle (well-formed or not). */
export function isBundle(text: string): boolean {
  return text.startsWith(BUNDLE_MARK);
}

/** A bundle's entries by key, or undefined when `text` is not a well-formed bundle. */
export function decodeBundle(text: string): Map<string, string> | undefined {
  if (!isBundle(text)) return undefined;
  let parsed: { keys?: unknown; values?: unknown };
  try {
    parsed = JSON.parse(text.slice(BUNDLE_MARK.length)) as { keys?: unknown; values?: unknown };
  } catch {
    return undefined;
  }
  const { keys, values } = parsed;
  if (!Array.isArray(keys) || !Array.isArray(values)) return undefined;
  const entries = new Map<string, string>();
  for (const pair of keys) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'number') return undefined;
    const value: unknown = values[pair[1]];
    if (typeof value !== 'string') return undefined;
    // A key written twice in one batch: the first write stands, as its link does.
    if (!entries.has(pair[0])) entries.set(pair[0], value);
  }
  return entries;
}

/**
 * The bundles a batch's entries of one group make: consecutive runs of at most
 * {@link BUNDLE_MAX_CHARS} of distinct values (a larger value alone in its own). A group of one
 * distinct value makes none: its entries share one plain file already.
 */
export function bundlesOf(entries: readonly BundledEntry[]): BundledEntry[][] {
  if (new Set(entries.map((entry) => entry.value)).size < 2) return [];
  const bundles: BundledEntry[][] = [];
  let current: BundledEntry[] = [];
  let seen = new Set<string>();
  let chars = 0;
  for (const entry of entries) {
    const added = seen.has(entry.value) ? 0 : entry.value.length;
    if (current.length > 0 && chars + added > BUNDLE_MAX_CHARS) {
      bundles.push(current);
      current = [];
      seen = new Set();
      chars = 0;
    }
    current.push(entry);
    if (!seen.has(entry.value)) {
      seen.add(entry.value);
      chars += entry.value.length;
    }
  }
  bundles.push(current);
  return bundles;
}
