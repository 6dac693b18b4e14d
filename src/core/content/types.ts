/** The formats the cleaners know. 'text' is plain prose or anything unrecognised: never rewritten. */
export type ContentFormat = 'html' | 'json' | 'test-output' | 'log' | 'file-listing' | 'diff' | 'stack-trace' | 'grep' | 'text';

/** Hints about where a piece of content came from; each is optional. */
export interface ContentHint {
  /** The shell command that produced the content (`pytest -x`, `grep -rn foo .`). */
  readonly command?: string;
  /** The file the content was read from (`report.xml`, `page.html`). */
  readonly path?: string;
}

/** Options of `cleanContent`. Every field is optional; without a format the content's format is detected. */
export interface CleanOptions {
  /** Skip detection and clean as this format. */
  readonly format?: ContentFormat;
  /** The command that produced the content, used for detection. */
  readonly command?: string;
  /** The path the content was read from, used for detection. */
  readonly path?: string;
  /** Question words: JSON rows and lines matching them are kept. */
  readonly question?: string;
  /**
   * Scores the rows of a long JSON array (as text) against the question; when given, the rows
   * that answer it best are kept instead of every row sharing a word with it.
   */
  readonly rankRows?: (rows: readonly string[]) => readonly number[];
}

/** What a cleaner returns. */
export interface CleanResult {
  /** The cleaned text; the input itself when nothing changed. */
  readonly text: string;
  /** The format the content was cleaned as. */
  readonly format: ContentFormat;
  /** Whether `text` differs from the input. */
  readonly changed: boolean;
  /** What was removed, one short human line each; never contains prompt text. */
  readonly removed: string[];
}

/** Builds a result, deciding `changed` from the texts so no cleaner can get it wrong. */
export function cleanResult(original: string, text: string, format: ContentFormat, removed: string[]): CleanResult {
  if (text === original) return { text: original, format, changed: false, removed: [] };
  return { text, format, changed: true, removed };
}

/** The result for content left as it was. */
export function unchanged(text: string, format: ContentFormat): CleanResult {
  return { text, format, changed: false, removed: [] };
}
