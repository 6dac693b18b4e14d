/**
 * Source files a person pasted one after the other under their question (each under its name, in
 * any of the forms `chat/fileHeaders.ts` reads): outlined the way code_graph outlines reads, against that question. The
 * definitions the question names (and what they call, and their class's constructor) stay in
 * full; every other body becomes a marker line; signatures, imports and docstrings stay.
 */
import { pastedFile } from '../../chat/pastedFiles';
import { extractMentions } from '../../code/mentions';
import { outlineSource } from '../../code/outliner';
import { ReferenceGraph, type GraphSource } from '../../code/referenceGraph';
import type { SourceAnalyzer } from '../../code/sourceAnalyzer';
import type { Stash } from '../../stash/stash';
import { CODE_GRAPH_DEFAULTS, CODE_GRAPH_ID } from '../codeGraph';

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
