/**
 * A paste of data cut to what answers the question it was pasted under: split into units of its
 * own kind (`content/pastedUnits.ts`: log events with their frames, samples, spans, grep groups,
 * test lines, wherever they sit and however they are mixed), the units scored against the question,
 * the answer and the structure around it kept (`unitSelection.ts`), in their order, each run of the
 * others one short line saying how many lines of which kinds it holds. The paste is stashed whole
 * behind one marker, so the cut is one retrieve from the original, byte for byte.
 */
import { lineTemplate, SlotCounts } from '../../content/logTemplates';
import { splitPastedUnits, type PastedUnit } from '../../content/pastedUnits';
import type { Stash } from '../../stash/stash';
import { pastedCutPays } from './pastePays';
import { questionCues, selectUnits, type UnitSelectionOptions } from './unitSelection';

/** A paste needs at least this many units to be cut by unit. */
const MIN_UNITS = 8;
/** Share of a paste's units that must be data (not prose or code) for it to be cut by unit. */
const MIN_DATA_SHARE = 0.6;
/** Characters per token of pasted data, for pricing before anything is counted exactly. */
const CHARACTERS_PER_TOKEN = 4;

export interface UnitCut {
  readonly text: string;
  readonly handle: string;
  readonly unitsBefore: number;
  readonly unitsKept: number;
  readonly linesBefore: number;
  readonly linesKept: number;
}

/** True when the text splits into enough units, most of them data, to be cut by unit. */
export function cutsByUnit(text: string): boolean {
  const units = splitPastedUnits(text.split('\n'));
  return units.length >= MIN_UNITS && units.filter((unit) => unit.kind !== 'text').length >= units.length * MIN_DATA_SHARE;
}

/**
 * The paste cut for the question, stashed; undefined when it does not split into data units or
 * the cut does not pay (priced with the request's other tokens, see `pastePays.ts`).
 */
export async function cutPasteByUnit(
  text: string,
  question: string,
  score: (query: string, texts: readonly string[]) => Promise<readonly number[]>,
  options: UnitSelectionOptions,
  stash: Pick<Stash, 'elide' | 'preview'>,
  otherCharacters: number,
): Promise<UnitCut | undefined> {
  const lines = text.split('\n');
  const units = splitPastedUnits(lines);
  if (units.length < MIN_UNITS || units.filter((unit) => unit.kind !== 'text').length < units.length * MIN_DATA_SHARE) return undefined;
  const texts = units.map((unit) => lines.slice(unit.start, unit.end).join('\n'));
  const scores = await score(question, texts);
  const kept = fillShortGaps(units, selectUnits(units, texts, scores, questionCues(question), options));
  const body = render(units, lines, kept);
  const unitsKept = kept.filter(Boolean).length;
  if (unitsKept === units.length) return undefined;
  const linesKept = units.reduce((sum, unit, index) => sum + (kept[index] ? unit.end - unit.start : 0), 0);
  const input = {
    original: text,
    summary: `${lines.length - linesKept} of ${lines.length} pasted lines not shown (${describeKinds(units.filter((_, index) => !kept[index]))}); kept what answers the question, every error and the structure around it`,
    kind: 'relevance_filter',
    render: (marker: string) => `${body}\n${marker}`,
  };
  const replacement = stash.preview(input).replacement;
  const pays = pastedCutPays({ pastedTokens: text.length / CHARACTERS_PER_TOKEN, keptTokens: replacement.length / CHARACTERS_PER_TOKEN, otherTokens: otherCharacters / CHARACTERS_PER_TOKEN });
  if (!pays) return undefined;
  const elision = stash.elide(input);
  return { text: elision.replacement, handle: elision.handle, unitsBefore: units.length, unitsKept, linesBefore: lines.length, linesKept };
}

/** A dropped run of one line is kept: the line saying it was dropped would cost as much. */
function fillShortGaps(units: readonly PastedUnit[], kept: boolean[]): boolean[] {
  for (let index = 0; index < units.length; ) {
    if (kept[index]) {
      index++;
      continue;
    }
    let end = index;
    while (end < units.length && !kept[end]) end++;
    if (units[end - 1]!.end - units[index]!.start <= 1) for (let fill = index; fill < end; fill++) kept[fill] = true;
    index = end;
  }
  return kept;
}

/**
 * What the first kept unit of a repeated event says about its repeats that were not kept: how many
 * there are in the paste and the values that varied (`[×276 in the paste; from 183.62.140.253 ×139, …]`),
 * every value for a warning or an error. Keyed by the unit's index.
 */
function repeatNotes(units: readonly PastedUnit[], lines: readonly string[], kept: readonly boolean[]): Map<number, string> {
  const byKey = new Map<string, number[]>();
  units.forEach((unit, index) => {
    if (unit.kind === 'metric' || unit.kind === 'span' || unit.kind === 'metric-header' || unit.kind === 'text') return;
    byKey.set(unit.key, [...(byKey.get(unit.key) ?? []), index]);
  });
  const notes = new Map<number, string>();
  for (const indexes of byKey.values()) {
    const shown = indexes.filter((index) => kept[index]);
    if (shown.length === 0 || shown.length === indexes.length) continue;
    const slots = new SlotCounts(indexes.some((index) => units[index]!.severity >= 1));
    for (const index of indexes) slots.add(lineTemplate(lines[units[index]!.start]!));
    const values = slots.describe();
    notes.set(shown[0]!, ` [×${indexes.length} in the paste${values.length > 0 ? `; ${values.join('; ')}` : ''}]`);
  }
  return notes;
}

/** The kept units in order; each run of the others one line: `[… 37 lines not shown: log ×30, span ×7 …]`. */
function render(units: readonly PastedUnit[], lines: readonly string[], kept: readonly boolean[]): string {
  const out: string[] = [];
  const notes = repeatNotes(units, lines, kept);
  for (let index = 0; index < units.length; ) {
    if (kept[index]) {
      const unitLines = lines.slice(units[index]!.start, units[index]!.end);
      const note = notes.get(index);
      if (note !== undefined) unitLines[0] = `${unitLines[0]}${note}`;
      out.push(...unitLines);
      index++;
      continue;
    }
    let end = index;
    while (end < units.length && !kept[end]) end++;
    const run = units.slice(index, end);
    out.push(`[… ${run.reduce((sum, unit) => sum + unit.end - unit.start, 0)} lines not shown: ${describeKinds(run)} …]`);
    index = end;
  }
  return out.join('\n').replace(/\n+$/, '');
}

const KIND_NAMES: Readonly<Record<PastedUnit['kind'], string>> = { log: 'log', metric: 'sample', 'metric-header': 'metric header', span: 'span', record: 'record', hit: 'hit group', frame: 'frame', test: 'test line', text: 'other' };

function describeKinds(units: readonly PastedUnit[]): string {
  const counts = new Map<string, number>();
  for (const unit of units) counts.set(KIND_NAMES[unit.kind], (counts.get(KIND_NAMES[unit.kind]) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([kind, count]) => `${kind} ×${count}`).join(', ');
}
