/**
 * Symbols of one parsed source: its definitions (functions, methods, classes) with the rows
 * their bodies occupy and the names each one calls. Rows are 0-based within the code that
 * was parsed (line-number prefixes already stripped).
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { LoadedGrammar } from './grammarLoader';
import type { LanguageSpec } from './languages';

export type UnitKind = 'function' | 'method' | 'class';

export interface CodeUnit {
  /** The defined name (last segment of a qualified C++ name). */
  readonly name: string;
  /** Names of enclosing units and this one, joined with dots: `Table._convert_data`. */
  readonly qualifiedName: string;
  readonly kind: UnitKind;
  /** First and last row of the whole definition. */
  readonly startRow: number;
  readonly endRow: number;
  /**
   * The rows an outline may replace with a marker (the body without its braces, signature or
   * docstring), or undefined when the body does not sit on lines of its own.
   */
  readonly bodyRows?: { readonly first: number; readonly last: number };
  /** Names called anywhere inside the definition, nested definitions included. */
  readonly calls: readonly string[];
  /** The parser had to recover from an error inside this definition. */
  readonly hasError: boolean;
  /** Index of the innermost enclosing unit. */
  readonly parent?: number;
}

export interface SourceSymbols {
  /** Definitions in document order (outer before inner). */
  readonly units: readonly CodeUnit[];
  readonly rowCount: number;
  /** Share of rows the parser could not make sense of (inside ERROR or MISSING nodes). */
  readonly errorShare: number;
}

interface RawUnit {
  name: string;
  kind: UnitKind;
  node: Node;
  body: Node;
}

/** Parses `code` and reads its definitions and calls; undefined when the parser gave up. */
export function extractSymbols(grammar: LoadedGrammar, code: string): SourceSymbols | undefined {
  let tree: Tree | null;
  try {
    tree = grammar.parser.parse(code);
  } catch {
    return undefined;
  }
  if (!tree) return undefined;
  try {
    return readTree(grammar, tree, code);
  } finally {
    // Trees live in wasm memory; free them as soon as the symbols are read.
    tree.delete();
  }
}

function readTree(grammar: LoadedGrammar, tree: Tree, code: string): SourceSymbols {
  const root = tree.rootNode;
  const rowCount = root.endPosition.row + 1;
  const lines = code.split('\n');
  const raw: RawUnit[] = [];
  const calls: { name: string; row: number }[] = [];
  for (const match of grammar.definitions.matches(root)) {
    let definition: Node | undefined;
    let kind: UnitKind | undefined;
    let name: Node | undefined;
    let body: Node | undefined;
    for (const capture of match.captures) {
      if (capture.name.startsWith('definition.')) {
        definition = capture.node;
        kind = capture.name.slice('definition.'.length) as UnitKind;
      } else if (capture.name === 'name') name = capture.node;
      else if (capture.name === 'body') body = capture.node;
    }
    if (definition && kind && name && body) raw.push({ name: simpleName(name.text), kind, node: definition, body });
  }
  for (const capture of grammar.references.captures(root)) calls.push({ name: capture.node.text, row: capture.node.startPosition.row });
  // Outer before inner: by start, then longest first.
  raw.sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);
  const units: { unit: Omit<CodeUnit, 'calls'>; calls: Set<string> }[] = [];
  const stack: { index: number; end: number }[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    const identity = `${item.node.startIndex}:${item.node.endIndex}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    while (stack.length > 0 && stack[stack.length - 1]!.end <= item.node.startIndex) stack.pop();
    const parent = stack.length > 0 ? stack[stack.length - 1]!.index : undefined;
    const parentUnit = parent === undefined ? undefined : units[parent]!.unit;
    const kind: UnitKind = item.kind === 'function' && parentUnit?.kind === 'class' ? 'method' : item.kind;
    units.push({
      unit: {
        name: item.name,
        qualifiedName: parentUnit ? `${parentUnit.qualifiedName}.${item.name}` : item.name,
        kind,
        startRow: item.node.startPosition.row,
        endRow: item.node.endPosition.row,
        bodyRows: kind === 'class' ? undefined : bodyRowsOf(grammar.language, item.node, item.body, lines),
        hasError: item.node.hasError,
        parent,
      },
      calls: new Set(),
    });
    stack.push({ index: units.length - 1, end: item.node.endIndex });
  }
  attributeCalls(units, calls, rowCount);
  return {
    units: units.map(({ unit, calls: names }) => ({ ...unit, calls: [...names].sort() })),
    rowCount,
    errorShare: root.hasError ? errorRows(root, rowCount) / rowCount : 0,
  };
}

/** Each call belongs to the innermost definition on its row and to every definition around that. */
function attributeCalls(units: { unit: Omit<CodeUnit, 'calls'>; calls: Set<string> }[], calls: readonly { name: string; row: number }[], rowCount: number): void {
  const owner = new Int32Array(rowCount).fill(-1);
  units.forEach(({ unit }, index) => owner.fill(index, unit.startRow, Math.min(rowCount, unit.endRow + 1)));
  for (const call of calls) {
    let index = owner[call.row] ?? -1;
    while (index >= 0) {
      const entry = units[index]!;
      entry.calls.add(simpleName(call.name));
      index = entry.unit.parent ?? -1;
    }
  }
}

function bodyRowsOf(language: LanguageSpec, definition: Node, body: Node, lines: readonly string[]): CodeUnit['bodyRows'] {
  const start = body.startPosition.row;
  const end = body.endPosition.row;
  switch (language.bodyStyle) {
    case 'braces': {
      // The closing brace must open its line, so the rows between the braces hold only the body.
      if (!(lines[end] ?? '').trimStart().startsWith('}')) return undefined;
      return end - 1 >= start + 1 ? { first: start + 1, last: end - 1 } : undefined;
    }
    case 'indented': {
      if (start <= definition.startPosition.row) return undefined;
      let first = start;
      const leading = body.namedChildren[0];
      // A docstring is documentation: it stays with the signature.
      if (leading?.type === 'expression_statement' && leading.namedChildren[0]?.type === 'string') first = leading.endPosition.row + 1;
      return end >= first ? { first, last: end } : undefined;
    }
    case 'keyword-end': {
      const last = Math.min(end, definition.endPosition.row - 1);
      return start > definition.startPosition.row && last >= start ? { first: start, last } : undefined;
    }
  }
}

/** Rows inside ERROR or MISSING nodes, visiting only subtrees that contain an error. */
function errorRows(root: Node, rowCount: number): number {
  const marked = new Uint8Array(rowCount);
  const visit = (node: Node): void => {
    if (node.type === 'ERROR' || node.isMissing) {
      marked.fill(1, node.startPosition.row, Math.min(rowCount, node.endPosition.row + 1));
      return;
    }
    if (!node.hasError) return;
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  let count = 0;
  for (const value of marked) count += value;
  return count;
}

/** `A::h` → `h`, `obj.method` → `method`. */
function simpleName(text: string): string {
  const parts = text.split(/::|\.|->/);
  return (parts[parts.length - 1] ?? text).trim();
}

/**
 * Symbols read from a slice of the code, moved onto the whole code's rows: the slice began
 * at row `offset` and had `syntheticRows` made-up lines put before it (definitions inside
 * those are dropped). `rowCount` is the whole code's.
 */
export function relocateSymbols(symbols: SourceSymbols, syntheticRows: number, offset: number, rowCount: number): SourceSymbols {
  if (syntheticRows === 0 && offset === 0) return symbols;
  const shift = offset - syntheticRows;
  const kept = symbols.units.map((unit, index) => ({ unit, index })).filter(({ unit }) => unit.startRow >= syntheticRows);
  const newIndex = new Map(kept.map(({ index }, position) => [index, position]));
  return {
    units: kept.map(({ unit }) => ({
      ...unit,
      startRow: unit.startRow + shift,
      endRow: unit.endRow + shift,
      bodyRows: unit.bodyRows && { first: unit.bodyRows.first + shift, last: unit.bodyRows.last + shift },
      parent: unit.parent === undefined ? undefined : newIndex.get(unit.parent),
    })),
    rowCount,
    errorShare: symbols.errorShare,
  };
}
