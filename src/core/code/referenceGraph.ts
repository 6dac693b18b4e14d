/**
 * The reference graph across every source in a request, and the working set it yields:
 * the definitions the latest turn points at (by name, by file and line, by quoting their
 * code), the definitions they call up to a depth, and the constructor of each class whose
 * method is kept. Definitions are named by file and qualified name, so every read of the
 * same file (a whole `cat` and a later `sed -n` range) keeps the same ones.
 */
import type { Mentions } from './mentions';
import { MIN_QUOTED_LINE } from './mentions';
import type { RecognizedSource } from './sourceRecognition';
import type { CodeUnit, SourceSymbols } from './symbols';

export interface GraphSource {
  /** Unique per source in the request (the tool-output segment's key). */
  readonly id: string;
  readonly source: RecognizedSource;
  readonly symbols: SourceSymbols;
}

export interface WorkingSetOptions {
  /** How many call steps to follow from a targeted definition. */
  readonly calleeDepth: number;
  /** A called name defined in more places than this is too ambiguous to follow. */
  readonly maxDefinitionsPerCallee: number;
  /** Keep the constructor of each class one of whose methods is kept. */
  readonly keepConstructors: boolean;
}

export interface WorkingSet {
  /** Keys (see {@link ReferenceGraph.keyOf}) of the definitions to keep in full. */
  readonly keys: ReadonlySet<string>;
  /** How many definitions the mentions pointed at directly. */
  readonly targeted: number;
  /** How many were added by following calls and class context. */
  readonly added: number;
}

interface UnitReference {
  readonly graphSource: GraphSource;
  readonly index: number;
  readonly unit: CodeUnit;
  readonly key: string;
}

export class ReferenceGraph {
  private readonly byName = new Map<string, UnitReference[]>();
  private readonly all: UnitReference[] = [];
  private readonly fileOf = new Map<string, string>();

  constructor(private readonly sources: readonly GraphSource[]) {
    const paths = sources.map((entry) => entry.source.path).filter((value): value is string => value !== undefined).map(normalizePath);
    for (const entry of sources) {
      this.fileOf.set(entry.id, entry.source.path === undefined ? `#${entry.id}` : canonicalPath(normalizePath(entry.source.path), paths));
      entry.symbols.units.forEach((unit, index) => {
        const reference: UnitReference = { graphSource: entry, index, unit, key: this.keyOf(entry, unit) };
        this.all.push(reference);
        const named = this.byName.get(unit.name);
        if (named) named.push(reference);
        else this.byName.set(unit.name, [reference]);
      });
    }
  }

  /** A definition's identity across reads: its file and qualified name. */
  keyOf(entry: GraphSource, unit: CodeUnit): string {
    return `${this.fileOf.get(entry.id) ?? `#${entry.id}`}::${unit.qualifiedName}`;
  }

  workingSet(mentions: Mentions, options: WorkingSetOptions): WorkingSet {
    const targets = new Map<string, UnitReference>();
    const add = (reference: UnitReference): void => {
      if (!targets.has(reference.key)) targets.set(reference.key, reference);
    };
    for (const name of mentions.identifiers) {
      for (const reference of this.byName.get(name) ?? []) {
        if (reference.unit.kind === 'class') this.constructorsOf(reference).forEach(add);
        else add(reference);
      }
    }
    for (const location of mentions.locations) {
      const wanted = normalizePath(location.path);
      for (const entry of this.sources) {
        if (entry.source.path === undefined || !samePath(normalizePath(entry.source.path), wanted) || !entry.source.lineNumbers) continue;
        this.unitsOverlapping(entry, location.first, location.last).forEach(add);
      }
    }
    this.quotedUnits(mentions).forEach(add);
    const targeted = targets.size;

    const kept = new Map(targets);
    let frontier = [...targets.values()];
    for (let depth = 0; depth < options.calleeDepth && frontier.length > 0; depth++) {
      const next: UnitReference[] = [];
      for (const reference of frontier) {
        for (const callee of reference.unit.calls) {
          for (const found of this.resolve(callee, reference, options.maxDefinitionsPerCallee)) {
            if (kept.has(found.key)) continue;
            kept.set(found.key, found);
            next.push(found);
          }
        }
      }
      frontier = next;
    }
    if (options.keepConstructors) {
      for (const reference of [...kept.values()]) {
        if (reference.unit.kind !== 'method' || reference.unit.parent === undefined) continue;
        const parent = this.referenceAt(reference.graphSource, reference.unit.parent);
        if (parent) for (const constructor of this.constructorsOf(parent)) if (!kept.has(constructor.key)) kept.set(constructor.key, constructor);
      }
    }
    return { keys: new Set(kept.keys()), targeted, added: kept.size - targeted };
  }

  /** Definitions a call name resolves to: in the caller's own file when it defines the name. */
  private resolve(name: string, caller: UnitReference, limit: number): UnitReference[] {
    const candidates = (this.byName.get(name) ?? []).filter((reference) => reference.unit.kind !== 'class');
    const callerFile = this.fileOf.get(caller.graphSource.id);
    const local = candidates.filter((reference) => this.fileOf.get(reference.graphSource.id) === callerFile);
    const chosen = local.length > 0 ? local : candidates;
    const distinct = new Map(chosen.map((reference) => [reference.key, reference]));
    return distinct.size <= limit ? [...distinct.values()] : [];
  }

  private referenceAt(entry: GraphSource, index: number): UnitReference | undefined {
    return this.all.find((reference) => reference.graphSource === entry && reference.index === index);
  }

  private constructorsOf(classReference: UnitReference): UnitReference[] {
    const names = new Set(classReference.graphSource.source.language.constructorNames.map((name) => (name === '<class>' ? classReference.unit.name : name)));
    return this.all.filter((reference) => reference.graphSource === classReference.graphSource && reference.unit.parent === classReference.index && names.has(reference.unit.name));
  }

  /** The innermost non-class definitions that overlap a file line range. */
  private unitsOverlapping(entry: GraphSource, first: number, last: number): UnitReference[] {
    const numbers = entry.source.lineNumbers!;
    const found: UnitReference[] = [];
    entry.symbols.units.forEach((unit, index) => {
      if (unit.kind === 'class') return;
      const start = numbers[unit.startRow];
      const end = numbers[Math.min(unit.endRow, numbers.length - 1)];
      if (start === undefined || end === undefined || end < first || start > last) return;
      // Only the innermost: a nested definition that overlaps too replaces its parent.
      const inner = entry.symbols.units.some((other) => other.parent === index && other.kind !== 'class' && overlaps(numbers, other, first, last));
      if (!inner) found.push({ graphSource: entry, index, unit, key: this.keyOf(entry, unit) });
    });
    return found;
  }

  /** Definitions whose lines the mentions quote verbatim. */
  private quotedUnits(mentions: Mentions): UnitReference[] {
    if (mentions.quotedLines.size === 0 && mentions.fragments.length === 0) return [];
    const found: UnitReference[] = [];
    for (const entry of this.sources) {
      const codeLines = entry.source.code.split('\n');
      entry.symbols.units.forEach((unit, index) => {
        if (unit.kind === 'class') return;
        // Rows of nested definitions count for the nested one only.
        const nested = entry.symbols.units.filter((other) => other.parent === index);
        for (let row = unit.startRow; row <= unit.endRow; row++) {
          if (nested.some((other) => row >= other.startRow && row <= other.endRow)) continue;
          const line = codeLines[row]?.trim() ?? '';
          if (line.length < MIN_QUOTED_LINE) continue;
          if (mentions.quotedLines.has(line) || mentions.fragments.some((fragment) => line.includes(fragment))) {
            found.push({ graphSource: entry, index, unit, key: this.keyOf(entry, unit) });
            return;
          }
        }
      });
    }
    return found;
  }
}

function overlaps(numbers: readonly number[], unit: CodeUnit, first: number, last: number): boolean {
  const start = numbers[unit.startRow];
  const end = numbers[Math.min(unit.endRow, numbers.length - 1)];
  return start !== undefined && end !== undefined && end >= first && start <= last;
}

export function normalizePath(filePath: string): string {
  return filePath.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/\.\//g, '/');
}

/** Same file: equal, or one is a trailing part of the other (`/testbed/a/b.py` and `a/b.py`). */
export function samePath(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

/** The longest spelling among the request's paths that names the same file. */
function canonicalPath(filePath: string, all: readonly string[]): string {
  let best = filePath;
  for (const other of all) if (other.length > best.length && samePath(other, filePath)) best = other;
  return best;
}
