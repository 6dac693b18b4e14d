/**
 * One pasted file as an item of a pasted list: its name (in any form `fileHeaders.ts` reads) and
 * where its code sits, fenced or running to the item's end. Pure functions of the item's text.
 */
import { fencePath, headerLinePath } from './fileHeaders';

/** One pasted file: its header path and where its code sits inside the item's text. */
export interface PastedFile {
  readonly path: string;
  readonly codeStart: number;
  readonly codeEnd: number;
  /** For fenced code, where the fence's closing line ends (what follows it is no longer the file). */
  readonly fenceEnd?: number;
}

/**
 * The path and code span of an item that is a pasted file (`fileHeaders.ts`): a header line over
 * a fenced block or over unfenced code running to the item's end, or a fence that names its
 * file; else undefined.
 */
export function pastedFile(item: string): PastedFile | undefined {
  const firstEnd = item.indexOf('\n');
  if (firstEnd === -1) return undefined;
  const first = item.slice(0, firstEnd);
  const fence = FENCE_OPEN.exec(first);
  if (fence !== null) {
    const path = fencePath(first, lineAt(item, firstEnd + 1));
    return path === undefined ? undefined : fencedCode(item, firstEnd + 1, fence[1]!, path);
  }
  const path = headerLinePath(first, lineAt(item, firstEnd + 1));
  if (path === undefined) return undefined;
  let cursor = firstEnd + 1;
  while (cursor < item.length && lineAt(item, cursor).trim() === '' && item.indexOf('\n', cursor) !== -1) cursor = item.indexOf('\n', cursor) + 1;
  const next = lineAt(item, cursor);
  const open = FENCE_OPEN.exec(next);
  if (open !== null) return cursor + next.length < item.length ? fencedCode(item, cursor + next.length + 1, open[1]!, path) : undefined;
  // Unfenced code (`==> a.py <==` from head or tail, `=== a.py ===`) runs to the item's end.
  const end = item.trimEnd().length;
  return end > cursor ? { path, codeStart: cursor, codeEnd: end } : undefined;
}

/** A fence's opening line and its marker (the closing line repeats it). */
const FENCE_OPEN = /^(```+|~~~+)/;

/** The code of a fence whose first code line starts at `codeStart`, up to its closing line; undefined when it does not close. */
function fencedCode(item: string, codeStart: number, mark: string, path: string): PastedFile | undefined {
  const close = item.indexOf(`\n${mark}`, codeStart - 1);
  if (close === -1) return undefined;
  const lineEnd = item.indexOf('\n', close + 1);
  return { path, codeStart, codeEnd: close, fenceEnd: lineEnd === -1 ? item.length : lineEnd };
}

/** The line of `text` that starts at `start`, without its newline. */
function lineAt(text: string, start: number): string {
  const end = text.indexOf('\n', start);
  return text.slice(start, end === -1 ? text.length : end);
}

/**
 * The label a dropped pasted file keeps in place of its first line when that line is the fence
 * itself (```` ```python src/app.py ````): its path, so no fence is left open; undefined otherwise.
 */
export function fencedFileLabel(item: string): string | undefined {
  const firstEnd = item.indexOf('\n');
  if (firstEnd === -1 || !FENCE_OPEN.test(item)) return undefined;
  const path = fencePath(item.slice(0, firstEnd), lineAt(item, firstEnd + 1));
  return path === undefined ? undefined : `${path}:`;
}
