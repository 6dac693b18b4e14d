/**
 * Decides which units of one assistant text stay: every action and code block, labels, the
 * last sentences before the action (what the agent was about to do and why), conclusion
 * sentences, and any sentence naming something not visible elsewhere. The rest is dropped
 * and the kept units are joined with one marker standing at the first gap and an ellipsis
 * at the later ones.
 */
import { isConclusion } from './conclusions';
import { mentionedNames, visibleNames } from './names';
import { splitUnits, type TextUnit } from './textUnits';

export interface TrimPlanOptions {
  /** How many prose sentences right before the action (or at the end of the text) stay. */
  readonly keepLastSentences: number;
  /** True when `name` is visible earlier in the request, outside this text. */
  readonly seenBefore: (name: string) => boolean;
  /** True when `snippet` stands verbatim earlier in the request (code the agent quotes from an observation). */
  readonly shownBefore: (snippet: string) => boolean;
}

export interface TrimPlan {
  readonly units: readonly TextUnit[];
  /** Parallel to `units`: true for the units that stay. */
  readonly kept: readonly boolean[];
  /** How many sentences are dropped. */
  readonly droppedSentences: number;
  /** How many sentences the text has. */
  readonly sentences: number;
  /** How many quoted blocks are dropped because they stand verbatim earlier. */
  readonly droppedQuotes: number;
}

/** Stands between the kept units where a later run of sentences was dropped. */
export const LATER_GAP = '…';

export function planTrim(text: string, options: TrimPlanOptions): TrimPlan {
  const units = splitUnits(text);
  // A quote of something shown earlier (a few lines of a file the agent just printed) repeats what the reader has.
  const kept = units.map((unit) => (unit.kind === 'quote' ? !isQuoteOfEarlier(unit.text, options.shownBefore) : unit.kind !== 'sentence'));
  const sentenceIndexes = units.flatMap((unit, index) => (unit.kind === 'sentence' ? [index] : []));

  // The sentences closest to the action say what the agent decided to do; so do the last ones of the text.
  const lastAction = units.map((unit) => unit.kind).lastIndexOf('action');
  if (lastAction >= 0) for (const index of lastOf(sentenceIndexes.filter((index) => index < lastAction), options.keepLastSentences)) kept[index] = true;
  for (const index of lastOf(sentenceIndexes, options.keepLastSentences)) kept[index] = true;

  for (const index of sentenceIndexes) if (!kept[index] && isConclusion(units[index]!.text)) kept[index] = true;
  // A sentence ending in a colon right before a block it keeps is that block's caption ("I changed it to:").
  for (const index of sentenceIndexes) {
    const next = units[index + 1];
    if (!kept[index] && next && next.kind !== 'sentence' && kept[index + 1] && /:\s*$/.test(units[index]!.text)) kept[index] = true;
  }

  // A sentence that alone names something (a path, an identifier, a number) stays, so the name stays in view.
  const keptNames = visibleNames(units.filter((_unit, index) => kept[index]).map((unit) => unit.text).join('\n'));
  for (const index of sentenceIndexes) {
    if (kept[index]) continue;
    const names = mentionedNames(units[index]!.text);
    if (names.some((name) => !keptNames.has(name) && !options.seenBefore(name))) {
      kept[index] = true;
      for (const name of visibleNames(units[index]!.text)) keptNames.add(name);
    }
  }
  const droppedSentences = sentenceIndexes.filter((index) => !kept[index]).length;
  const droppedQuotes = units.filter((unit, index) => unit.kind === 'quote' && !kept[index]).length;
  return { units, kept, droppedSentences, sentences: sentenceIndexes.length, droppedQuotes };
}

/** The trimmed text, with `marker` at the first gap. */
export function renderTrim(plan: TrimPlan, marker: string): string {
  let out = '';
  let gaps = 0;
  let index = 0;
  while (index < plan.units.length) {
    if (plan.kept[index]) {
      out += plan.units[index]!.text;
      index++;
      continue;
    }
    let last = index;
    while (last + 1 < plan.units.length && !plan.kept[last + 1]) last++;
    // The run's trailing whitespace keeps the layout: a dropped paragraph leaves its line break.
    const text = plan.units[last]!.text;
    const trailing = text.slice(text.trimEnd().length);
    out += (gaps === 0 ? marker : LATER_GAP) + trailing;
    gaps++;
    index = last + 1;
  }
  return out;
}

/** Lines shorter than this (a lone bracket, `else:`) say nothing about where a quote came from. */
const MIN_QUOTE_LINE = 4;
const ELLIPSIS_LINE = /^(?:#|\/\/|\/\*|--)?\s*(?:\.\.\.|…)[^\n]{0,40}$/;

/** True when every meaningful line inside a fenced block stands verbatim earlier in the request. */
function isQuoteOfEarlier(block: string, shownBefore: (snippet: string) => boolean): boolean {
  const lines = block.split('\n').slice(1);
  // The closing fence and the blank lines after it are not content.
  // Trimmed first: /^\s*(`{3,}|~{3,})?\s*$/ is quadratic on a long line of spaces.
  while (lines.length > 0 && /^(`{3,}|~{3,})?$/.test((lines[lines.length - 1] ?? '').trim())) lines.pop();
  // An ellipsis line ("# ...") marks where the agent shortened its quote; it is not content of its own.
  const meaningful = lines.map((line) => line.trim()).filter((line) => line.length >= MIN_QUOTE_LINE && !ELLIPSIS_LINE.test(line));
  return meaningful.length > 0 && meaningful.every((line) => shownBefore(line));
}

/** The last `count` items (none for 0, where `slice(-0)` would give them all). */
function lastOf<T>(items: readonly T[], count: number): readonly T[] {
  return count <= 0 ? [] : items.slice(Math.max(0, items.length - count));
}
