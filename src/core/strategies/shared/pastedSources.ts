/**
 * Source files a person pasted one after the other under their question (each under its name, in
 * any of the forms `chat/fileHeaders.ts` reads): outlined the way code_graph outlines reads, against that question. The
 * definitions the question names (and what they call, and their class's constructor) stay in
 * full; every other body becomes a marker line; signatures, imports and docstrings stay.
 */
import { fencePath, headerLinePath } from '../../chat/fileHeaders';
import { extractMentions } from '../../code/mentions';
import { outlineSource } from '../../code/outliner';
import { ReferenceGraph, type GraphSource } from '../../code/referenceGraph';
import type { SourceAnalyzer } from '../../code/sourceAnalyzer';
import type { Stash } from '../../stash/stash';
import { CODE_GRAPH_DEFAULTS, CODE_GRAPH_ID } from '../codeGraph';

/** One pasted file: its header path and where its code sits inside the item's text. */
interface PastedFile {
  readonly path: string;
  readonly codeStart: number;
  readonly codeEnd: number;
}

/**
 * The path and code span of an item that is a pasted file (`fileHeaders.ts`): a header line over
 * a fenced block or over unfenced code running to the item's end, or a fence that names its
 * file; else undefined.
 */
function pastedFile(item: string): PastedFile | undefined {
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
  return close === -1 ? undefined : { path, codeStart, codeEnd: close };
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

/**
 * The items with the code of each pasted source outlined against the question, and the handles of
 * the bodies stashed; an item that is not source, or that nothing in it can be outlined, comes back
 * as it was.
 */
export async function outlinePastedSources(items: readonly string[], question: string, analyzer: SourceAnalyzer, stash: Pick<Stash, 'elide'>): Promise<{ items: string[]; handles: string[]; bodies: number }> {
  const files = items.map(pastedFile);
  const analyses = await Promise.all(files.map(async (file, index) => {
    if (file === undefined) return undefined;
    const code = items[index]!.slice(file.codeStart, file.codeEnd);
    const analysis = await analyzer.analyze(code, { path: file.path }, { maxErrorShare: CODE_GRAPH_DEFAULTS.maxErrorShare });
    return analysis.status === 'parsed' ? { source: analysis.source, symbols: analysis.symbols } : undefined;
  }));
  const sources: GraphSource[] = [];
  analyses.forEach((analysis, index) => {
    if (analysis !== undefined) sources.push({ id: String(index), source: analysis.source, symbols: analysis.symbols });
  });
  if (sources.length === 0) return { items: [...items], handles: [], bodies: 0 };
  const graph = new ReferenceGraph(sources);
  const workingSet = graph.workingSet(extractMentions(question), CODE_GRAPH_DEFAULTS);
  const handles: string[] = [];
  let bodies = 0;
  const outlined = items.map((item, index) => {
    const file = files[index];
    const entry = sources.find((source) => source.id === String(index));
    if (file === undefined || entry === undefined || lineCount(item) < CODE_GRAPH_DEFAULTS.minLines) return item;
    const outline = outlineSource(entry.source, entry.symbols, (unit) => workingSet.keys.has(graph.keyOf(entry, unit)), {
      elide: (input) => {
        const elision = stash.elide(input);
        handles.push(elision.handle);
        return elision;
      },
    }, { minBodyLines: CODE_GRAPH_DEFAULTS.minBodyLines, kind: CODE_GRAPH_ID });
    bodies += outline.elided.length;
    return outline.elided.length === 0 ? item : item.slice(0, file.codeStart) + outline.text + item.slice(file.codeEnd);
  });
  return { items: outlined, handles, bodies };
}

function lineCount(text: string): number {
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return lines;
}
