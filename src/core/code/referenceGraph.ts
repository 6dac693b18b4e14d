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
  /**
   * A code-shaped name the latest turn mentions (`change_map`, `PGPASSFILE`) targets the
   * definitions whose code uses it, when at most this many do (0 turns this off).
   */
  readonly maxDefinitionsPerUsage: number;
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
  private readonly paths: readonly string[];
  private readonly canonical = new Map<string, string>();

  constructor(private readonly sources: readonly GraphSource[]) {
    this.paths = sources.map((entry) => entry.source.path).filter((value): value is string => value !== undefined).map(normalizePath);
    for (const entry of sources) {
      this.fileOf.set(entry.id, this.fileKey(entry));
      entry.symbols.units.forEach((unit, index) => {
        const reference: UnitReference = { graphSource: entry, index, unit, key: this.keyOf(entry, unit) };
        this.all.push(reference);
        const named = this.byName.get(unit.name);
        if (named) named.push(reference);
        else this.byName.set(unit.name, [reference]);
      });
    }
  }

  /**
   * A definition's identity across reads: its file and qualified name. `entry` need not be
   * one of the graph's sources (a read as an earlier strategy left it); a read without a path
   * is its own file.
   */
  keyOf(entry: GraphSource, unit: CodeUnit): string {
    return `${this.fileKey(entry)}::${unit.qualifiedName}`;
  }

  private fileKey(entry: GraphSource): string {
    if (entry.source.path === undefined) return `#${entry.id}`;
    let key = this.canonical.get(entry.source.path);
    if (key === undefined) {
      key = canonicalPath(normalizePath(entry.source.path), this.paths);
      this.canonical.set(entry.source.path, key);
    }
    return key;
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
      // A defined name targets its definition; any other code-shaped name, the code using it.
      if (options.maxDefinitionsPerUsage > 0 && !this.byName.has(name) && isCodeShaped(name)) {
        const users = this.usersOf(name);
        if (users.size <= options.maxDefinitionsPerUsage) users.forEach(add);
      }
    }
    for (const location of mentions.locations) {
      const wanted = normalizePath(location.path);
      for (const entry of this.sources) {
        if (entry.source.path === undefined || !samePath(normalizePath(entry.source.path), wanted) || !entry.source.lineNumbers) continue;
        this.unitsOverlapping(entry, location.first, location.last).forEach(add);
      }
    }
    this.quotedUnits(mentions, options.maxDefinitionsPerUsage).forEach(add);
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

  /** Definitions whose own code (outside nested definitions) uses a name, by key. */
  private usersOf(name: string): Map<string, UnitReference> {
    const users = new Map<string, UnitReference>();
    for (const entry of this.sources) {
      for (const index of usageIndex(entry.symbols, entry.source.code).get(name) ?? []) {
        const reference: UnitReference = { graphSource: entry, index, unit: entry.symbols.units[index]!, key: this.keyOf(entry, entry.symbols.units[index]!) };
        users.set(reference.key, reference);
      }
    }
    return users;
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

  /** Definitions whose lines the mentions quote verbatim, for quotes found in at most `limit` definitions. */
  private quotedUnits(mentions: Mentions, limit: number): UnitReference[] {
    if (mentions.quotedLines.size === 0 && mentions.fragments.length === 0) return [];
    const byQuote = new Map<string, Map<string, UnitReference>>();
    for (const entry of this.sources) {
      const codeLines = entry.source.code.split('\n');
      const owner = innermostOwners(entry.symbols);
      codeLines.forEach((raw, row) => {
        const index = owner[row] ?? -1;
        if (index < 0) return;
        const line = raw.trim();
        if (line.length < MIN_QUOTED_LINE) return;
        const quotes = mentions.quotedLines.has(line) ? [line] : [];
        for (const fragment of mentions.fragments) if (line.includes(fragment)) quotes.push(fragment);
        for (const quote of quotes) {
          const unit = entry.symbols.units[index]!;
          const reference: UnitReference = { graphSource: entry, index, unit, key: this.keyOf(entry, unit) };
          const users = byQuote.get(quote) ?? new Map<string, UnitReference>();
          users.set(reference.key, reference);
          byQuote.set(quote, users);
        }
      });
    }
    // A line found in many definitions (`return result`) points nowhere in particular.
    return [...byQuote.values()].filter((users) => users.size <= Math.max(1, limit)).flatMap((users) => [...users.values()]);
  }
}

function isCodeShaped(name: string): boolean {
  return name.length >= 5 && (/[_\d]/.test(name) || /[a-z][A-Z]/.test(name) || /^[A-Z][A-Z0-9_]+$/.test(name));
}

const usageIndexes = new WeakMap<SourceSymbols, Map<string, number[]>>();
const ownerIndexes = new WeakMap<SourceSymbols, Int32Array>();

/** For each row, the innermost non-class definition holding it (-1: none); built once per parsed source. */
function innermostOwners(symbols: SourceSymbols): Int32Array {
  const known = ownerIndexes.get(symbols);
  if (known) return known;
  const owner = new Int32Array(symbols.rowCount).fill(-1);
  symbols.units.forEach((unit, index) => {
    if (unit.kind !== 'class') owner.fill(index, unit.startRow, Math.min(symbols.rowCount, unit.endRow + 1));
  });
  ownerIndexes.set(symbols, owner);
  return owner;
}

/** Name → innermost non-class definitions using it; built once per parsed source. */
function usageIndex(symbols: SourceSymbols, code: string): Map<string, number[]> {
  const known = usageIndexes.get(symbols);
  if (known) return known;
  const owner = innermostOwners(symbols);
  const index = new Map<string, number[]>();
  code.split('\n').forEach((line, row) => {
    const unit = owner[row] ?? -1;
    if (unit < 0) return;
    for (const match of line.matchAll(/[A-Za-z_][A-Za-z0-9_]{4,}/g)) {
      const users = index.get(match[0]);
      if (!users) index.set(match[0], [unit]);
      else if (users[users.length - 1] !== unit && !users.includes(unit)) users.push(unit);
    }
  });
  usageIndexes.set(symbols, index);
  return index;
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
