/**
 * The lines a unified diff changes, per file, on the old side: what a submission edited.
 * Used to name the definitions a change touches.
 */

export interface ChangedLines {
  /** The file's path as the diff names it (without `a/`/`b/`). */
  readonly path: string;
  /** 1-based old-side line numbers removed or replaced. */
  readonly removed: readonly number[];
  /** Old-side line numbers after which lines were inserted (0: at the top). */
  readonly insertedAfter: readonly number[];
}

export function changedLines(diff: string): ChangedLines[] {
  const files: { path: string; removed: Set<number>; insertedAfter: Set<number> }[] = [];
  let current: (typeof files)[number] | undefined;
  let oldLine = 0;
  let previousWasInsertion = false;
  for (const line of diff.split('\n')) {
    const header = /^diff --git a\/(\S+) b\/(\S+)/.exec(line);
    if (header) {
      current = { path: header[1]!, removed: new Set(), insertedAfter: new Set() };
      files.push(current);
      continue;
    }
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(line);
    if (hunk) {
      // An empty old side (`-0,0`) starts before line 1.
      oldLine = hunk[2] === '0' ? Number(hunk[1]) + 1 : Number(hunk[1]);
      continue;
    }
    if (!current || line.startsWith('---') || line.startsWith('+++')) continue;
    if (line.startsWith('-')) {
      current.removed.add(oldLine);
      oldLine++;
      previousWasInsertion = false;
    } else if (line.startsWith('+')) {
      if (!previousWasInsertion) current.insertedAfter.add(oldLine - 1);
      previousWasInsertion = true;
    } else if (line.startsWith(' ')) {
      oldLine++;
      previousWasInsertion = false;
    }
  }
  const sorted = (values: Set<number>): number[] => [...values].sort((a, b) => a - b);
  return files
    .filter((file) => file.removed.size + file.insertedAfter.size > 0)
    .map((file) => ({ path: file.path, removed: sorted(file.removed), insertedAfter: sorted(file.insertedAfter) }));
}
