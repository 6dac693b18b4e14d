/**
 * How people name a file they paste above its contents. Several whole files pasted under a
 * question are a list of items (one per file), and each file's name is what marks where it
 * starts. People and tools write that name in many ways:
 *
 * - a line of its own: `src/app.py:`, `File: src/app.py`, a bare path with a folder (`src/app.py`),
 *   `==> src/app.py <==` (`head`, `tail`), `=== src/app.py ===`, `--- src/app.py ---`;
 * - right above a fence only: a Markdown heading (`### src/app.py`), a bold or code-quoted path
 *   (`**src/app.py**`, `` `src/app.py`: ``), or a sentence ending in a quoted path and a colon
 *   ("Here is `src/app.py`:");
 * - the fence itself: ```` ```python src/app.py ````, ```` ```src/app.py ````,
 *   ```` ```python title="src/app.py" ````, ```` ```py:src/app.py ````;
 * - the fence's first line, as a comment: `# src/app.py`, `// File: src/app.ts`, `-- db/schema.sql`,
 *   `// filepath: src/app.ts` (Copilot's own convention in the code it writes).
 *
 * A name counts only when it reads as a file path: an extension after a name with a letter in
 * it, no scheme, no spaces. Pure functions of the lines they are given.
 */

/** A file path: a root or drive, folders, a name, an extension that starts with a letter (`app.py`, `src/a-b/c.test.ts`, `./x/y.rs`, `c:\src\app.ts`). */
const PATH = /^(?:[A-Za-z]:[\\/]|\.{1,2}[\\/]|~[\\/]|[\\/])?(?:[\w@.+-]+[\\/])*[\w@+-][\w@.+-]*\.[A-Za-z][\w]{0,9}$/;

/** True when `token` reads as a file path (not a URL, a version number or a sentence's last word). */
export function isFilePath(token: string): boolean {
  if (token.length > 240 || !PATH.test(token)) return false;
  const folders = /[\\/]/.test(token);
  const name = token.slice(Math.max(token.lastIndexOf('/'), token.lastIndexOf('\\')) + 1, token.lastIndexOf('.'));
  // A one-letter name with a one-letter extension outside any folder is prose ("e.g", "i.e").
  return /[A-Za-z]/.test(name) && (folders || name.length > 1 || token.length - token.lastIndexOf('.') > 2);
}

/** The plain forms: `src/app.py:`, `File: src/app.py`, `/abs/path/app.py` (a path with a folder), `==> src/app.py <==`. */
const PLAIN_HEADER = /^(?:(?:File|Path):\s*)?([\w.@-]*(?:\/[\w.@-]+)*\.\w{1,10}):?$|^==> (\S+) <==$/;

/** Banner and labelled forms, unambiguous on their own line: `=== src/app.py ===`, `--- src/app.py ---`, ``Filename: `app.py` ``. */
const BANNER_HEADERS: readonly RegExp[] = [/^={3,} ?(\S+?) ?={3,}$/, /^-{3,} (\S+) -{3,}$/, /^(?:File|Path|Filename):\s*`?([^\s`]+?)`?:?$/i];

/**
 * Forms that read as a file's name only right above a fence (elsewhere they are the user's own
 * headings and notes): a Markdown heading, a bold or code-quoted path, a sentence ending in a
 * quoted path and a colon. A list item ("- Tests in `a.py`:") is never one.
 */
const ABOVE_FENCE_HEADERS: readonly RegExp[] = [/^#{1,6} +(?:File:\s*)?`?([^\s`]+?)`?:?$/i, /^\*\*`?([^\s`*]+?)`?:?\*\*:?$/, /^`([^\s`]+)`:?$/, /^(?![-*+>]\s|\d+[.)]\s)[^`\n]{0,120}`([^\s`]+)`\)?:$/];

/**
 * The path a line names when the line is a file's header on its own (outside any fence), else
 * undefined. `next`: the line after it (the forms that need a fence under them look at it).
 */
export function headerLinePath(line: string, next?: string): string | undefined {
  const trimmed = line.trim();
  if (trimmed.length === 0 || trimmed.length > 300 || /^(```|~~~)/.test(trimmed)) return undefined;
  const plain = PLAIN_HEADER.exec(trimmed);
  if (plain !== null && /[/:]|^==>|^(?:File|Path):/.test(line)) return plain[1] ?? plain[2];
  for (const pattern of BANNER_HEADERS) {
    const path = pattern.exec(trimmed)?.[1];
    if (path !== undefined && isFilePath(path)) return path;
  }
  if (next === undefined || !/^(```|~~~)/.test(next)) return undefined;
  for (const pattern of ABOVE_FENCE_HEADERS) {
    const path = pattern.exec(trimmed)?.[1];
    if (path !== undefined && isFilePath(path)) return path;
  }
  return undefined;
}

/** A comment line that only names a file: `# src/app.py`, `// File: src/app.ts`, `-- schema.sql`, a C block comment or an HTML comment around the path. */
const COMMENT_HEADER = new RegExp('^(?:#|//|--|;+|%|/\\*|<!--)\\s*(?:(?:File|Path|Filename|filepath):\\s*)?`?([^\\s`]+?)`?\\s*(?:\\*/|-->)?$', 'i');

/**
 * The path a fence names for the code in it: in its info string (```` ```python src/app.py ````,
 * ```` ```src/app.py ````, ```` ```python title="src/app.py" ````, ```` ```py:src/app.py ````) or on
 * its first line as a comment (`# src/app.py`); undefined when it names none.
 */
export function fencePath(openLine: string, firstLine: string | undefined): string | undefined {
  const info = /^\s*(?:```+|~~~+)\s*(.*)$/.exec(openLine)?.[1]?.trim();
  if (info === undefined) return undefined;
  const titled = /\b(?:title|file|filename|path)=["']?([^"'\s]+)["']?/i.exec(info)?.[1];
  if (titled !== undefined && isFilePath(titled)) return titled;
  for (const word of info.split(/\s+/)) {
    const token = word.includes(':') && !/^\w+:\/\//.test(word) && !/^[A-Za-z]:[\\/]/.test(word) ? word.slice(word.indexOf(':') + 1) : word;
    if (isFilePath(token) && !LANGUAGE_ONLY.test(token)) return token;
  }
  if (firstLine === undefined) return undefined;
  const commented = COMMENT_HEADER.exec(firstLine.trim())?.[1];
  return commented !== undefined && isFilePath(commented) ? commented : undefined;
}

/** An info string that is a language name with a dot in it rather than a file (`vue.js`, `node.js`): kept from being read as a path. */
const LANGUAGE_ONLY = /^(?:node|vue|next|nuxt|d3|three|chart|express|react|angular)\.js$/i;
