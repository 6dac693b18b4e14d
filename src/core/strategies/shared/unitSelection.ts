/**
 * Which units of a pasted paste of data to keep for the question it was pasted under. What
 * answers it, plus the structure around it:
 * - every error, fatal and failure unit, with its stack frames (never elided), and every span that
 *   failed;
 * - warnings when the question asks about failures or they fall in the time it names;
 * - the time the question names (`at 10:05`, `around 18:05`): the warnings logged from a minute
 *   before to two minutes after, each event once (repeats of one event beyond the first two and
 *   the last are left in the original), and every unit of that time ranked twice as high;
 * - for series (Prometheus samples, spans): each series' highest and lowest reading and its last,
 *   every reading far above the series' median (a spike), the slowest spans; the `# HELP` and
 *   `# TYPE` lines of every family a sample is kept from;
 * - for "where is it defined?", the hits that define a name the question uses;
 * - the best-scoring units by the scorer's relevance, a share of the paste, each event at most twice;
 * - the paste's own lines of prose (a heading over a section), when there are few of them.
 * Pure and deterministic: the caller stashes the paste whole and shows what is kept.
 */
import type { PastedUnit } from '../../content/pastedUnits';
import { asksAboutFailures } from '../../relevance/diagnosticLines';
import { scoreFloor } from '../../relevance/lineSelection';
import { tokenizeForSearch } from '../../relevance/searchTokenizer';

export interface UnitSelectionOptions {
  /** Share of the units (0–1) that may be kept by score. */
  readonly keepRatio: number;
  /** At least this many units may be kept by score, whatever the ratio. */
  readonly minKept: number;
  /** A unit needs to be at least this share of the way from the median unit's score to the best to be kept by score. */
  readonly relativeScoreFloor: number;
}

/** What the question asks for, beyond its words. */
export interface QuestionCues {
  readonly failures: boolean;
  /** Seconds-of-day windows [from, to) around each time the question names. */
  readonly windows: readonly (readonly [number, number])[];
  /** "where is … defined / declared / implemented" */
  readonly definitions: boolean;
  /** The question's search terms (stemmed), for definitions. */
  readonly terms: readonly string[];
}

/** A time named in a question: `10:05`, `at 18:05:30`, `around 9:41 am`. */
const QUESTION_TIME = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?\b/gi;
/** Words of a question that name nothing in code. */
const QUESTION_WORDS = new Set(['where', 'what', 'which', 'who', 'how', 'why', 'when', 'the', 'and', 'not', 'just', 'used', 'use', 'uses', 'called', 'this', 'that', 'these', 'those', 'does', 'did', 'are', 'was', 'were', 'for', 'from', 'with', 'into', 'only', 'also', 'there', 'here', 'its', 'all', 'any', 'find', 'show', 'code']);
const DEFINITION_WORDS = /\b(?:defined|defines|define|definition|declared|declares|declaration|implemented|implementation)\b/i;

export function questionCues(question: string): QuestionCues {
  const windows: [number, number][] = [];
  for (const match of question.matchAll(QUESTION_TIME)) {
    let hours = Number(match[1]);
    const minutes = Number(match[2]);
    if (hours > 23 || minutes > 59) continue;
    if (match[4] !== undefined && /pm/i.test(match[4]) && hours < 12) hours += 12;
    const at = hours * 3600 + minutes * 60;
    windows.push([at - 60, at + 180]);
  }
  // Names are matched by the words as written (`retry` in `retryRequest`) and by their stems.
  const words = (question.toLowerCase().match(/[a-z_$][\w$]{2,}/g) ?? []).filter((word) => !QUESTION_WORDS.has(word) && !DEFINITION_WORDS.test(word));
  return { failures: asksAboutFailures(question), windows, definitions: DEFINITION_WORDS.test(question), terms: [...new Set([...words, ...tokenizeForSearch(question)])] };
}

function inWindow(unit: PastedUnit, cues: QuestionCues): boolean {
  if (unit.timeOfDay === undefined) return false;
  return cues.windows.some(([from, to]) => unit.timeOfDay! >= from && unit.timeOfDay! < to);
}

/** A reading this many times the series' median is a spike. */
const SPIKE_FACTOR = 3;
/** Slowest spans kept, over the paste and within a named time. */
const SLOWEST_SPANS = 3;
/** Score factor of a unit logged in the time the question names. */
const WINDOW_BOOST = 2;
/** Repeats of one event kept (the first ones); the last is kept too. */
const REPEATS_SHOWN = 2;
/** Lines of the paste's own prose kept as headings when they are at most this share of its units. */
const HEADING_SHARE = 0.05;

/** A line that defines a name holding one of the question's terms, in the common languages' syntax. */
function definesTerm(text: string, terms: readonly string[]): boolean {
  return text.split('\n').some((line) => lineDefinesTerm(line, terms));
}

function lineDefinesTerm(text: string, terms: readonly string[]): boolean {
  const match = /\b(?:def|class|function|func|fn|interface|type|struct|enum|trait|module)\s+\*?\s*([A-Za-z_$][\w$]*)|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]{0,200}\)\s*=>|[\w$]+\s*=>)|^[^:]*[:-]\d+[:-]\s*(?:static\s+|async\s+|public\s+|private\s+|protected\s+)*\*?#?([A-Za-z_$][\w$]*)\s*\([^)]{0,300}\)\s*\{\s*$|([A-Za-z_$][\w$]*)\s*=\s*function\b/.exec(text);
  const name = match?.[1] ?? match?.[2] ?? match?.[3] ?? match?.[4];
  if (name === undefined) return false;
  const lower = name.toLowerCase();
  return terms.some((term) => term.length >= 3 && lower.includes(term));
}

export function selectUnits(units: readonly PastedUnit[], texts: readonly string[], scores: readonly number[], cues: QuestionCues, options: UnitSelectionOptions): boolean[] {
  const kept = new Array<boolean>(units.length).fill(false);
  const prose = units.filter((unit) => unit.kind === 'text').length;
  const headings = prose <= Math.max(2, units.length * HEADING_SHARE);
  units.forEach((unit, index) => {
    if (unit.kind === 'text' && headings && texts[index]!.length <= 200) kept[index] = true;
    else if (cues.definitions && unit.kind === 'hit' && definesTerm(texts[index]!, cues.terms)) kept[index] = true;
  });
  const seen = new Map<string, number[]>();
  const eventOnce = (index: number): void => {
    const key = units[index]!.key;
    const shown = seen.get(key) ?? [];
    seen.set(key, [...shown, index]);
    if (shown.length < REPEATS_SHOWN) kept[index] = true;
  };
  // Warnings of the time the question names first, so their repeats there are the ones shown.
  units.forEach((unit, index) => {
    if (!kept[index] && isEvent(unit) && unit.severity >= 1 && inWindow(unit, cues)) eventOnce(index);
  });
  units.forEach((unit, index) => {
    if (!kept[index] && isEvent(unit) && (unit.severity >= 2 || (unit.severity === 1 && cues.failures)) && !inWindow(unit, cues)) eventOnce(index);
  });
  // The last repeat of each event folded above, so the span of its repeats shows.
  for (const indexes of seen.values()) if (indexes.length > REPEATS_SHOWN) kept[Math.max(...indexes)] = true;
  keepSeries(units, cues, kept);
  // What was logged in the time the question names ranks above the rest.
  keepByScore(units, cues.windows.length === 0 ? scores : scores.map((score, index) => (inWindow(units[index]!, cues) ? score * WINDOW_BOOST : score)), options, kept);
  keepFamilyHeaders(units, kept);
  return kept;
}

/**
 * A unit that reports an event: not a reading of a series, not a header. A span is a reading of
 * its operation's durations, unless it failed (an error status, an error message): then it
 * reports that failure, kept like an error logged, each of them however fast it was.
 */
function isEvent(unit: PastedUnit): boolean {
  if (unit.kind === 'span') return unit.severity >= 2;
  return unit.kind !== 'metric' && unit.kind !== 'metric-header';
}

/** Each series' extremes, last reading, spikes and readings in the named time; the slowest spans. */
function keepSeries(units: readonly PastedUnit[], cues: QuestionCues, kept: boolean[]): void {
  const bySeries = new Map<string, number[]>();
  units.forEach((unit, index) => {
    if ((unit.kind === 'metric' || unit.kind === 'span') && unit.value !== undefined) bySeries.set(`${unit.kind} ${unit.series ?? ''}`, [...(bySeries.get(`${unit.kind} ${unit.series ?? ''}`) ?? []), index]);
  });
  const spans: number[] = [];
  for (const [name, indexes] of bySeries) {
    const values = indexes.map((index) => units[index]!.value!);
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    if (name.startsWith('span ')) {
      spans.push(...indexes);
      continue;
    }
    let highest = 0;
    let lowest = 0;
    values.forEach((value, position) => {
      if (value > values[highest]!) highest = position;
      if (value < values[lowest]!) lowest = position;
      if (median > 0 && value >= median * SPIKE_FACTOR) kept[indexes[position]!] = true;
      if (inWindow(units[indexes[position]!]!, cues)) kept[indexes[position]!] = true;
    });
    kept[indexes[highest]!] = true;
    kept[indexes[lowest]!] = true;
    kept[indexes[indexes.length - 1]!] = true;
  }
  const slowest = (candidates: number[]): number[] => [...candidates].sort((a, b) => units[b]!.value! - units[a]!.value! || a - b).slice(0, SLOWEST_SPANS);
  for (const index of slowest(spans)) kept[index] = true;
  if (cues.windows.length > 0) for (const index of slowest(spans.filter((index) => inWindow(units[index]!, cues)))) kept[index] = true;
}

function keepByScore(units: readonly PastedUnit[], scores: readonly number[], options: UnitSelectionOptions, kept: boolean[]): void {
  const best = Math.max(0, ...scores);
  if (best === 0) return;
  const budget = Math.max(options.minKept, Math.ceil(units.length * options.keepRatio));
  const perEvent = new Map<string, number>();
  const floor = scoreFloor(scores, best, options.relativeScoreFloor);
  const ranked = scores
    .map((score, index) => ({ score, index }))
    .filter((entry) => entry.score > 0 && entry.score >= floor && units[entry.index]!.kind !== 'metric-header')
    // Ties go to the earlier unit, so the choice never depends on sort stability.
    .sort((a, b) => b.score - a.score || a.index - b.index);
  let taken = 0;
  for (const entry of ranked) {
    if (taken >= budget) break;
    const unit = units[entry.index]!;
    // A series (samples, spans) counts as one event: its readings are kept by their values, above.
    const key = unit.kind === 'metric' || unit.kind === 'span' ? `${unit.kind} ${unit.series ?? ''}` : unit.key;
    const count = perEvent.get(key) ?? 0;
    if (count >= REPEATS_SHOWN) continue;
    perEvent.set(key, count + 1);
    kept[entry.index] = true;
    taken++;
  }
}

/** The `# HELP` / `# TYPE` lines of every metric family a sample is kept from. */
function keepFamilyHeaders(units: readonly PastedUnit[], kept: boolean[]): void {
  const families = new Set<string>();
  units.forEach((unit, index) => {
    if (kept[index] && unit.kind === 'metric' && unit.series !== undefined) families.add(/^[a-zA-Z_:][\w:]*/.exec(unit.series)?.[0] ?? unit.series);
  });
  units.forEach((unit, index) => {
    if (unit.kind !== 'metric-header' || unit.series === undefined) return;
    const family = unit.series;
    if ([...families].some((name) => name === family || name.startsWith(`${family}_`))) kept[index] = true;
  });
}
