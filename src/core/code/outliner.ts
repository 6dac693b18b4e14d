/**
 * Turns a recognised source into its outline: every definition outside the working set has
 * its body replaced by one marker line, stashed so it expands back byte for byte. Signatures,
 * docstrings, imports, class headers and top-level statements stay; kept lines keep their
 * line-number prefixes.
 */
import type { Stash } from '../stash/stash';
import type { RecognizedSource } from './sourceRecognition';
import type { CodeUnit, SourceSymbols } from './symbols';

export interface OutlineOptions {
  /** Bodies shorter than this many lines are left in place: the marker would save too little. */
  readonly minBodyLines: number;
  /** Stash kind (the strategy id). */
  readonly kind: string;
}

/** One body the outline replaced with a marker. */
export interface ElidedBody {
  /** The stash handle that gives the body back. */
  readonly handle: string;
  /** Qualified name of the definition whose body it was. */
  readonly name: string;
  /** How many lines the marker stands for. */
  readonly lines: number;
}

export interface Outline {
  /** The source's text with elided bodies replaced by marker lines (the whole text when nothing was elided). */
  readonly text: string;
  readonly elided: readonly ElidedBody[];
  /** Definitions kept in full because the working set holds them (or something inside them). */
  readonly keptUnits: number;
}

/**
 * The outline of `source`; `keep(unit)` says whether a definition is in the working set.
 * Definitions the parser had to repair are never elided. Each body goes through `stash.elide`;
 * a caller that prices the outline first passes `{ elide: (input) => stash.preview(input) }`
 * and stashes the same inputs once it decides to keep the outline.
 */
export function outlineSource(source: RecognizedSource, symbols: SourceSymbols, keep: (unit: CodeUnit) => boolean, stash: Pick<Stash, 'elide'>, options: OutlineOptions): Outline {
  const units = symbols.units;
  // A definition holding a kept one is kept too: the kept code must be shown in its place.
  const keptInside = units.map((unit) => unit.kind !== 'class' && keep(unit));
  for (let index = units.length - 1; index >= 0; index--) {
    const parent = units[index]!.parent;
    if (keptInside[index] && parent !== undefined) keptInside[parent] = true;
  }
  const ranges: { first: number; last: number; unit: CodeUnit }[] = [];
  let coveredUntil = -1;
  let keptUnits = 0;
  units.forEach((unit, index) => {
    if (unit.startRow <= coveredUntil) return;
    if (unit.kind === 'class') return;
    if (keptInside[index]) {
      keptUnits++;
      return;
    }
    const body = unit.bodyRows;
    if (!body || unit.hasError || body.last - body.first + 1 < options.minBodyLines) return;
    ranges.push({ first: body.first, last: body.last, unit });
    coveredUntil = unit.endRow;
  });
  if (ranges.length === 0) return { text: source.lines.join('\n'), elided: [], keptUnits };

  const codeLines = source.code.split('\n');
  const output: string[] = source.lines.slice(0, source.codeStart);
  const elided: ElidedBody[] = [];
  let row = 0;
  for (const range of ranges) {
    for (; row < range.first; row++) output.push(source.lines[source.codeStart + row]!);
    const original = source.lines.slice(source.codeStart + range.first, source.codeStart + range.last + 1).join('\n');
    const count = range.last - range.first + 1;
    const indentation = ' '.repeat(source.prefixLengths[range.first] ?? 0) + (/^\s*/.exec(codeLines[range.first] ?? '')?.[0] ?? '');
    const elision = stash.elide({
      original,
      summary: `${count} lines of ${range.unit.name} elided`,
      kind: options.kind,
      render: (marker) => indentation + marker,
    });
    output.push(elision.replacement);
    elided.push({ handle: elision.handle, name: range.unit.qualifiedName, lines: count });
    row = range.last + 1;
  }
  for (let index = source.codeStart + row; index < source.lines.length; index++) output.push(source.lines[index]!);
  return { text: output.join('\n'), elided, keptUnits };
}
