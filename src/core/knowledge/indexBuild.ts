/**
 * A whole library's full-text index built in one pass. Adding units to minisearch one by one
 * walks its radix tree once per word of every unit; here postings are gathered in hash maps
 * and each distinct term goes into the tree once, through `MiniSearch.loadJS` with the data
 * `MiniSearch#toJSON` gives for the same units added in the same order (ids, field lengths,
 * running average lengths, postings), so searches score and rank exactly alike.
 */
import type MiniSearch from 'minisearch';

/** The plain form minisearch saves and loads (its serialization version 2). */
export type IndexData = ReturnType<MiniSearch['toJSON']>;

/** What a build needs to know of the index's options. */
export interface IndexShape<T> {
  readonly idField: keyof T & string;
  readonly fields: readonly (keyof T & string)[];
  readonly tokenize: (text: string) => string[];
  /** Fields whose texts repeat across units (a page's facts on each of its sections): tokenized once per distinct text. */
  readonly repeatedFields: ReadonlySet<string>;
}

/** The data minisearch would hold after `addAll(units)` on an empty index with these options. */
export function indexData<T>(units: readonly T[], shape: IndexShape<T>): IndexData {
  const documentIds: Record<number, unknown> = {};
  const fieldLength: Record<number, number[]> = {};
  const averageFieldLength: number[] = [];
  const fieldIds: Record<string, number> = {};
  shape.fields.forEach((field, fieldId) => (fieldIds[field] = fieldId));
  const fieldCount = shape.fields.length;
  // Term → number, and per term and field the postings as [unit, count, unit, count, …]: units
  // come in order, so a unit's count is always the last pair, and no map is keyed by unit.
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const postings: number[][] = [];
  const seenIds = new Set<unknown>();
  const tokensOfRepeated = new Map<string, string[]>();
  for (let unitIndex = 0; unitIndex < units.length; unitIndex++) {
    const unit = units[unitIndex]!;
    const id: unknown = unit[shape.idField];
    if (id === undefined || id === null) throw new Error(`Herald: search unit ${unitIndex} has no ${shape.idField}`);
    if (seenIds.has(id)) throw new Error(`Herald: duplicate search unit id ${String(id)}`);
    seenIds.add(id);
    documentIds[unitIndex] = id;
    const lengths: number[] = [];
    fieldLength[unitIndex] = lengths;
    for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
      const field = shape.fields[fieldId]!;
      const value: unknown = unit[field];
      if (value === undefined || value === null) continue;
      const tokens = tokensOf(String(value), shape.repeatedFields.has(field) ? tokensOfRepeated : undefined, shape.tokenize);
      // Distinct tokens, as minisearch counts them (an empty one included, though it is not indexed).
      let distinct = 0;
      let sawEmpty = false;
      for (const term of tokens) {
        if (!term) {
          sawEmpty = true;
          continue;
        }
        let termId = termIds.get(term);
        if (termId === undefined) {
          termId = terms.length;
          termIds.set(term, termId);
          terms.push(term);
          for (let slot = 0; slot < fieldCount; slot++) postings.push(NO_POSTINGS);
        }
        const slot = termId * fieldCount + fieldId;
        let list = postings[slot]!;
        if (list === NO_POSTINGS) postings[slot] = list = [];
        if (list.length > 0 && list[list.length - 2] === unitIndex) {
          list[list.length - 1]!++;
        } else {
          list.push(unitIndex, 1);
          distinct++;
        }
      }
      if (sawEmpty) distinct++;
      lengths[fieldId] = distinct;
      // The running average minisearch keeps, in its order of operations, so it comes out bit for bit the same.
      averageFieldLength[fieldId] = ((averageFieldLength[fieldId] || 0) * unitIndex + distinct) / (unitIndex + 1);
    }
  }
  const index: [string, Record<string, Record<string, number>>][] = [];
  for (let termId = 0; termId < terms.length; termId++) {
    const data: Record<string, Record<string, number>> = {};
    for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
      const list = postings[termId * fieldCount + fieldId]!;
      if (list.length === 0) continue;
      const counts: Record<string, number> = {};
      for (let at = 0; at < list.length; at += 2) counts[list[at]!] = list[at + 1]!;
      data[fieldId] = counts;
    }
    index.push([terms[termId]!, data]);
  }
  return { documentCount: units.length, nextId: units.length, documentIds, fieldIds, fieldLength, averageFieldLength, storedFields: {}, dirtCount: 0, index, serializationVersion: 2 };
}

/** The shared empty list of a term not (yet) seen in a field: most terms are in one or two fields of three. */
const NO_POSTINGS: number[] = [];

function tokensOf(text: string, memo: Map<string, string[]> | undefined, tokenize: (text: string) => string[]): string[] {
  if (!memo) return tokenize(text);
  let tokens = memo.get(text);
  if (!tokens) memo.set(text, (tokens = tokenize(text)));
  return tokens;
}
