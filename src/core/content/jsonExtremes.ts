/**
 * A question that asks for an extreme ("which program received the most bytes", "the slowest
 * request", "when was the peak") is answered by the rows that hold the largest or smallest value
 * of a number, wherever in the row it sits. A summarised JSON array keeps those rows whatever
 * they look like; they need not be outliers to be the answer.
 */

/** Words that ask for the largest or smallest of something. */
const EXTREME_WORDS = /\b(?:most|least|max|maximum|min|minimum|highest|lowest|largest|smallest|biggest|greatest|fewest|peak|peaked|top|slowest|fastest|longest|shortest|busiest|heaviest|worst|spike|spiked)\b/i;

/** Deepest a row is walked for its numbers. */
const MAX_DEPTH = 6;
/** An array of scalars this short is a tuple (`[time, value]`): its positions are columns. */
const TUPLE_ITEMS = 4;

/** True when the question asks for the largest or smallest of something. */
export function asksForExtreme(question: string | undefined): boolean {
  return question !== undefined && EXTREME_WORDS.test(question);
}

/**
 * Indexes of the rows that hold the largest or the smallest value of each number path (`bytes`,
 * `pointlist.*.1`: array items are one path, a tuple's positions are each their own), over the
 * paths most rows share.
 */
export function extremeRows(rows: readonly unknown[]): Set<number> {
  const extremes = new Map<string, { seen: number; max: number; maxRow: number; min: number; minRow: number }>();
  rows.forEach((row, index) => {
    const seenHere = new Set<string>();
    walk(row, '', 0, (path, value) => {
      const entry = extremes.get(path);
      if (entry === undefined) {
        extremes.set(path, { seen: 1, max: value, maxRow: index, min: value, minRow: index });
        seenHere.add(path);
        return;
      }
      if (!seenHere.has(path)) {
        entry.seen++;
        seenHere.add(path);
      }
      if (value > entry.max) Object.assign(entry, { max: value, maxRow: index });
      if (value < entry.min) Object.assign(entry, { min: value, minRow: index });
    });
  });
  const found = new Set<number>();
  for (const entry of extremes.values()) {
    // A number only a few rows carry is no column to rank by.
    if (entry.seen < rows.length / 2 || entry.max === entry.min) continue;
    found.add(entry.maxRow);
    found.add(entry.minRow);
  }
  return found;
}

function walk(value: unknown, path: string, depth: number, visit: (path: string, value: number) => void): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) visit(path, value);
    return;
  }
  if (Array.isArray(value)) {
    const tuple = value.length <= TUPLE_ITEMS && value.every((item) => item === null || typeof item !== 'object');
    value.forEach((item, index) => walk(item, `${path}.${tuple ? index : '*'}`, depth + 1, visit));
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) walk(field, `${path}.${key}`, depth + 1, visit);
  }
}
