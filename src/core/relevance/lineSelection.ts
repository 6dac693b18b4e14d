/**
 * Which lines of a long output to keep for a question: the best-scoring lines (in their
 * original order), a few leading and trailing lines for orientation, error lines always,
 * warning lines first when the question asks about failures, and a little context around
 * each hit. Pure and deterministic; the caller stashes the rest.
 */
import { isErrorLine, isWarningLine } from './diagnosticLines';

/** How lines are chosen. Every field is required; callers keep the defaults in one place. */
export interface LineSelectionOptions {
  /** Lines kept from the start of the output, for orientation. */
  readonly leadingLines: number;
  /** Lines kept from the end (summaries and exit lines sit there). */
  readonly trailingLines: number;
  /** Lines kept before and after each selected line. */
  readonly contextLines: number;
  /** Share of the output's lines (0–1) that may be selected by score. */
  readonly keepRatio: number;
  /** At least this many lines may be selected by score, whatever the ratio. */
  readonly minKeptLines: number;
  /** A line needs to be at least this share of the way from the output's median score to its best to be selected. */
  readonly relativeScoreFloor: number;
  /** Runs of dropped lines shorter than this are kept instead: a marker would cost as much. */
  readonly minElidedRun: number;
}

export interface LineSelection {
  /** One flag per line: true when kept. */
  readonly kept: readonly boolean[];
  /** Lines selected by score (before context was added). */
  readonly hits: number;
  /** Error lines protected from elision. */
  readonly errors: number;
  /** Warning lines kept. */
  readonly warningsKept: number;
}

/**
 * The score a line (or unit) must reach to be selected by score: `share` of the way from the
 * output's median score to its best. Measured from the median rather than from zero, a line has
 * to stand out from the output's typical line, whatever the scorer's scale: a model whose
 * cosines run flat (every log line a little like the question) no longer lets most lines through.
 */
export function scoreFloor(scores: readonly number[], best: number, share: number): number {
  if (scores.length === 0) return best * share;
  const sorted = Float64Array.from(scores).sort();
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return median + share * (best - median);
}

export function selectLines(lines: readonly string[], scores: readonly number[], options: LineSelectionOptions, failureQuestion = false): LineSelection {
  const count = lines.length;
  const kept = new Array<boolean>(count).fill(false);
  for (let index = 0; index < Math.min(options.leadingLines, count); index++) kept[index] = true;
  for (let index = Math.max(0, count - options.trailingLines); index < count; index++) kept[index] = true;

  let errors = 0;
  const anchors: number[] = [];
  const warning = new Array<boolean>(count).fill(false);
  lines.forEach((line, index) => {
    if (isErrorLine(line)) {
      errors++;
      anchors.push(index);
    } else if (failureQuestion && isWarningLine(line)) {
      warning[index] = true;
    }
  });

  const best = Math.max(0, ...scores);
  const budget = Math.max(options.minKeptLines, Math.ceil(count * options.keepRatio));
  const floor = scoreFloor(scores, best, options.relativeScoreFloor);
  const ranked = scores
    .map((score, index) => ({ score, index, warning: warning[index]! }))
    .filter((entry) => entry.warning || (entry.score > 0 && entry.score >= floor))
    // Warnings first for failure questions; ties go to the earlier line, so the choice never depends on sort stability.
    .sort((a, b) => Number(b.warning) - Number(a.warning) || b.score - a.score || a.index - b.index)
    .slice(0, budget);
  for (const entry of ranked) anchors.push(entry.index);

  for (const anchor of anchors) {
    const from = Math.max(0, anchor - options.contextLines);
    const to = Math.min(count - 1, anchor + options.contextLines);
    for (let index = from; index <= to; index++) kept[index] = true;
  }

  // Short dropped runs are not worth a marker.
  let runStart = -1;
  for (let index = 0; index <= count; index++) {
    if (index < count && !kept[index]) {
      if (runStart < 0) runStart = index;
      continue;
    }
    if (runStart >= 0 && index - runStart < options.minElidedRun) for (let fill = runStart; fill < index; fill++) kept[fill] = true;
    runStart = -1;
  }
  const warningsKept = warning.filter((isWarning, index) => isWarning && kept[index]).length;
  return { kept, hits: ranked.length, errors, warningsKept };
}

/** Maximal runs of dropped lines, as [start, end) line ranges. */
export function droppedRuns(kept: readonly boolean[]): [number, number][] {
  const runs: [number, number][] = [];
  let runStart = -1;
  for (let index = 0; index <= kept.length; index++) {
    if (index < kept.length && !kept[index]) {
      if (runStart < 0) runStart = index;
    } else if (runStart >= 0) {
      runs.push([runStart, index]);
      runStart = -1;
    }
  }
  return runs;
}
