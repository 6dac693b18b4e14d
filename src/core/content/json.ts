/**
 * JSON: minified, empty fields (null, "", [], {}) dropped, an API object's many link fields
 * (`forks_url`, `keys_url`, …) folded to one, and long arrays summarised by shape. A summarised array keeps its first rows, its last row, and every row that is
 * anomalous (a rare value in a column, a failed or error status, an outlier number, an
 * unusual set of keys) or that mentions a word of the question, and, for a question that asks for
 * the most or least of something, the rows holding each number's extremes; each run of elided rows
 * becomes one marker string in place, so positions stay readable.
 */
import { questionWords } from './question';
import { cleanResult, unchanged, type CleanResult } from './types';
import { checkDeadline } from '../pipeline/deadline';
import { asksForExtreme, extremeRows } from './jsonExtremes';
import { elidedLinks, LINKS_KEY } from './jsonLinks';

/** Arrays longer than this are summarised. */
export const LONG_ARRAY_ITEMS = 20;
/** Rows always kept at the head of a summarised array. */
const HEAD_ROWS = 3;
/** A column value seen in at most this share of rows (and at most a few times) is rare. */
const RARE_SHARE = 0.02;
/** Values that mark a failed row whatever their column. */
const FAILURE_VALUE = /\b(?:fail|failed|failure|error|errored|errors|exception|denied|rejected|invalid|timeout|timed[ _-]?out|cancel(?:l)?ed|aborted|crash(?:ed)?|refused|unauthori[sz]ed|forbidden|panic)\b/i;
/** Column names whose values are statuses, where any rare value matters. */
const STATUS_KEY = /status|state|result|outcome|level|severity|conclusion|code|error/i;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What the rows are kept for: the question's words, or a ranking of rows against it. */
interface Question {
  readonly words: readonly string[];
  readonly rankRows?: (rows: readonly string[]) => readonly number[];
  /** The question asks for the largest or smallest of something: the rows holding each number's extremes stay. */
  readonly extremes?: boolean;
}

interface Summary {
  blobs: number;
  arrays: number;
  elidedRows: number;
  keptAnomalies: number;
  droppedEmpty: number;
  repeats: number;
  links: number;
  linkObjects: number;
}

/** Options of `cleanJson`. */
export interface JsonCleanOptions {
  /** Question words: rows of long arrays that mention one are kept. */
  readonly question?: string;
  /**
   * Scores the rows of a long array (as JSON text) against the question. When given, the rows
   * that answer it best are kept instead of every row sharing a word with it.
   */
  readonly rankRows?: (rows: readonly string[]) => readonly number[];
}

/** Rows a ranking keeps at most: this share of a long array, and never fewer than `MIN_RANKED_ROWS`. */
const RANKED_ROW_SHARE = 0.05;
const MIN_RANKED_ROWS = 3;
/** A ranked row needs this share of the best row's score. */
const RANKED_ROW_FLOOR = 0.5;

/** Cleans JSON text. Text that does not parse as one JSON value is returned unchanged. */
export function cleanJson(text: string, options: JsonCleanOptions = {}): CleanResult {
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return unchanged(text, 'json');
  }
  const summary: Summary = { blobs: 0, arrays: 0, elidedRows: 0, keptAnomalies: 0, droppedEmpty: 0, repeats: 0, links: 0, linkObjects: 0 };
  const question: Question = { words: questionWords(options.question), rankRows: options.rankRows, extremes: asksForExtreme(options.question) };
  let output: string;
  try {
    output = foldRepeats(clean(value, question, summary, 0) ?? null, '$', new Map(), summary, 0).text;
  } catch {
    // Nesting so deep that serialising overflows the stack: leave it as it came.
    return unchanged(text, 'json');
  }
  const removed: string[] = [];
  if (output.length < text.length) removed.push('whitespace (minified)');
  if (summary.droppedEmpty > 0) removed.push(`${summary.droppedEmpty} empty fields`);
  if (summary.links > 0) removed.push(`${summary.links} link fields (addresses of other API endpoints) in ${summary.linkObjects} object${summary.linkObjects === 1 ? '' : 's'}`);
  if (summary.repeats > 0) removed.push(`${summary.repeats} repeated object${summary.repeats === 1 ? '' : 's'} written once (later copies point at the first)`);
  if (summary.blobs > 0) removed.push(`${summary.blobs} encoded blob${summary.blobs === 1 ? '' : 's'} (base64 or hex) replaced by their length`);
  if (summary.arrays > 0) {
    removed.push(`${summary.elidedRows} rows of ${summary.arrays} long array${summary.arrays === 1 ? '' : 's'} summarised by shape (${summary.keptAnomalies} anomalous or matching rows kept)`);
  }
  // Never hand back something longer than what came in.
  if (output.length >= text.length) return unchanged(text, 'json');
  return cleanResult(text, output, 'json', removed);
}

function isEmpty(value: Json): boolean {
  if (value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** A string this long made only of base64 or hex characters is an encoded payload, not text. */
const BLOB_MIN_CHARS = 256;
const BLOB = /^[A-Za-z0-9+/=_-]+$/;

/** Nesting deeper than this is carried as it is: recursion must not overflow the stack. */
const MAX_DEPTH = 100;

/** A nested object or array this long (as JSON) that repeats an earlier one is written once. */
const REPEAT_MIN_CHARS = 160;

/**
 * The value as minified JSON, with every object or array that repeats an earlier one (the same
 * owner, the same permissions block in every API response) replaced by a string pointing at the
 * first: `"[same as $[0].response.owner]"`. Built bottom-up, so each subtree is written once.
 */
function foldRepeats(value: Json, path: string, seen: Map<string, string>, summary: Summary, depth: number): { text: string } {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return { text: JSON.stringify(value) };
  const text = Array.isArray(value)
    ? `[${value.map((item, index) => foldRepeats(item, `${path}[${index}]`, seen, summary, depth + 1).text).join(',')}]`
    : `{${Object.entries(value).map(([key, field]) => `${JSON.stringify(key)}:${foldRepeats(field, `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`, seen, summary, depth + 1).text}`).join(',')}}`;
  if (depth === 0 || text.length < REPEAT_MIN_CHARS) return { text };
  const first = seen.get(text);
  if (first !== undefined) {
    summary.repeats++;
    return { text: JSON.stringify(`[same as ${first}]`) };
  }
  seen.set(text, path);
  return { text };
}

/** Returns the cleaned value, or undefined when the value itself is empty and should go. */
function clean(value: Json, question: Question, summary: Summary, depth: number): Json | undefined {
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => clean(item, question, summary, depth + 1) ?? null);
    return items.length > LONG_ARRAY_ITEMS ? summariseArray(value, items, question, summary) : items;
  }
  if (value !== null && typeof value === 'object') {
    const result: { [key: string]: Json } = {};
    const links = elidedLinks(value, question.words);
    for (const [key, field] of Object.entries(value)) {
      checkDeadline();
      if (links?.has(key)) {
        // The first of the elided links marks where they were.
        if (!(LINKS_KEY in result)) result[LINKS_KEY] = `[${links.size} more link fields elided: ${[...links].slice(0, 3).join(', ')}${links.size > 3 ? ', …' : ''}]`;
        continue;
      }
      const cleaned = clean(field, question, summary, depth + 1);
      if (cleaned === undefined || isEmpty(cleaned)) {
        summary.droppedEmpty++;
        continue;
      }
      result[key] = cleaned;
    }
    if (links !== undefined) {
      summary.links += links.size;
      summary.linkObjects++;
    }
    return result;
  }
  if (typeof value === 'string' && value.length >= BLOB_MIN_CHARS && BLOB.test(value)) {
    summary.blobs++;
    return `[encoded blob, ${value.length} chars elided]`;
  }
  return value;
}

/** Which rows of a long array must stay, judged on the original rows. */
function keptRows(rows: readonly Json[], question: Question): Set<number> {
  const kept = new Set<number>();
  for (let index = 0; index < Math.min(HEAD_ROWS, rows.length); index++) kept.add(index);
  kept.add(rows.length - 1);
  const texts = rows.map((row) => JSON.stringify(row).toLowerCase());
  if (question.rankRows !== undefined) {
    for (const index of bestRows(question.rankRows(texts))) kept.add(index);
  }
  rows.forEach((row, index) => {
    checkDeadline();
    if (question.rankRows === undefined && question.words.length > 0 && question.words.some((word) => texts[index]!.includes(word))) kept.add(index);
    if (hasFailure(row, 0)) kept.add(index);
  });
  if (question.extremes) for (const index of extremeRows(rows)) kept.add(index);
  const objects = rows.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row));
  if (objects) {
    for (const index of anomalousObjectRows(rows as { [key: string]: Json }[])) kept.add(index);
  } else if (rows.every((row) => typeof row === 'number')) {
    for (const index of outliers(rows as number[])) kept.add(index);
  } else {
    for (const index of rareValues(rows.map((row) => (typeof row === 'object' ? undefined : String(row))))) kept.add(index);
  }
  return kept;
}

/** The rows a ranking puts first: within `RANKED_ROW_FLOOR` of the best, at most `RANKED_ROW_SHARE` of them. */
function bestRows(scores: readonly number[]): number[] {
  const best = Math.max(0, ...scores);
  if (best === 0) return [];
  const budget = Math.max(MIN_RANKED_ROWS, Math.ceil(scores.length * RANKED_ROW_SHARE));
  return scores
    .map((score, index) => ({ score, index }))
    .filter((entry) => entry.score >= best * RANKED_ROW_FLOOR)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, budget)
    .map((entry) => entry.index);
}

function hasFailure(value: Json, depth: number): boolean {
  if (depth > 3 || value === null) return false;
  if (typeof value === 'string') return value.length <= 200 && FAILURE_VALUE.test(value);
  if (typeof value === 'boolean' || typeof value === 'number') return false;
  if (Array.isArray(value)) return false;
  return Object.entries(value).some(([key, field]) => {
    if (/^(?:error|errors|exception|failure)$/i.test(key) && !isEmpty(field) && field !== false) return true;
    if (/^(?:success|ok|passed)$/i.test(key) && field === false) return true;
    return STATUS_KEY.test(key) && hasFailure(field, depth + 1);
  });
}

/** Rows with a rare scalar value in a column, an outlier number, or an unusual key set. */
function anomalousObjectRows(rows: readonly { [key: string]: Json }[]): Set<number> {
  const found = new Set<number>();
  const columns = new Map<string, (Json | undefined)[]>();
  rows.forEach((row, index) => {
    checkDeadline();
    for (const [key, field] of Object.entries(row)) {
      let column = columns.get(key);
      if (column === undefined) {
        column = new Array<Json | undefined>(rows.length).fill(undefined);
        columns.set(key, column);
      }
      column[index] = field;
    }
  });
  for (const [key, column] of columns) {
    const present = column.filter((field) => field !== undefined).length;
    // A key most rows have and a few lack, or a few have and most lack, marks those few.
    if (present !== rows.length) {
      const rare = Math.min(present, rows.length - present) <= Math.max(1, Math.floor(rows.length * RARE_SHARE));
      if (rare) column.forEach((field, index) => { if ((field === undefined) === (present > rows.length / 2)) found.add(index); });
    }
    const numbers = column.map((field) => (typeof field === 'number' ? field : undefined));
    if (numbers.filter((field) => field !== undefined).length >= rows.length * 0.8) {
      for (const index of outliers(numbers)) found.add(index);
    }
    const scalars = column.map((field) => (field === undefined || (field !== null && typeof field === 'object') || typeof field === 'number' ? undefined : String(field)));
    for (const index of rareValues(scalars, STATUS_KEY.test(key))) found.add(index);
  }
  return found;
}

/** Indexes whose categorical value is rare in a column that is mostly a few repeated values. */
function rareValues(values: readonly (string | undefined)[], statusColumn = false): number[] {
  const counts = new Map<string, number>();
  let present = 0;
  for (const value of values) {
    if (value === undefined) continue;
    present++;
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  // A column of mostly distinct values (names, ids, urls) has no "rare" value.
  if (present < 8 || counts.size > Math.max(3, present * 0.1)) return [];
  const limit = Math.max(1, Math.floor(present * RARE_SHARE));
  const found: number[] = [];
  values.forEach((value, index) => {
    if (value === undefined) return;
    const count = counts.get(value)!;
    if (count <= limit || (statusColumn && count <= Math.max(1, present * 0.05))) found.push(index);
  });
  return found;
}

/**
 * Robust outliers: further than 6 median absolute deviations from the median. An anomaly is rare:
 * when more rows than `RARE_SHARE` of them (at least three) stand out, the column is heavy-tailed
 * rather than anomalous, and the most extreme of them stand for the rest.
 */
function outliers(values: readonly (number | undefined)[]): number[] {
  const found = farValues(values);
  const limit = Math.max(3, Math.ceil(values.length * RARE_SHARE));
  if (found.length <= limit) return found.map((entry) => entry.index);
  return found.sort((a, b) => b.distance - a.distance || a.index - b.index).slice(0, limit).map((entry) => entry.index).sort((a, b) => a - b);
}

function farValues(values: readonly (number | undefined)[]): { index: number; distance: number }[] {
  const present = values.filter((value): value is number => value !== undefined && Number.isFinite(value));
  if (present.length < 8) return [];
  const sorted = [...present].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const deviations = present.map((value) => Math.abs(value - median)).sort((a, b) => a - b);
  const spread = deviations[Math.floor(deviations.length / 2)]!;
  const found: { index: number; distance: number }[] = [];
  values.forEach((value, index) => {
    if (value === undefined) return;
    // With no spread at all (a constant column), any different value stands out.
    if (spread === 0 ? value !== median && present.filter((other) => other !== median).length <= Math.max(1, present.length * RARE_SHARE) : Math.abs(value - median) > 6 * spread) found.push({ index, distance: Math.abs(value - median) });
  });
  return found;
}

/** A short description of the rows' shape: `{id:number,status:string,…}`. */
function shapeOf(rows: readonly Json[]): string {
  const first = rows.find((row) => row !== null);
  if (first === undefined || first === null) return 'null';
  if (Array.isArray(first)) return `array(${first.length})`;
  if (typeof first !== 'object') return typeof first;
  const keys = Object.keys(first).slice(0, 12);
  const shape = keys.map((key) => {
    const field = first[key];
    return `${key}:${field === null ? 'null' : Array.isArray(field) ? 'array' : typeof field}`;
  });
  return `{${shape.join(',')}${Object.keys(first).length > keys.length ? ',…' : ''}}`;
}

function summariseArray(original: readonly Json[], cleaned: readonly Json[], question: Question, summary: Summary): Json[] {
  const kept = keptRows(original, question);
  const result: Json[] = [];
  let shape = `shape ${shapeOf(cleaned)}`;
  let gapStart = -1;
  let elided = 0;
  const closeGap = (end: number): void => {
    if (gapStart === -1) return;
    const count = end - gapStart;
    result.push(`[… ${count} row${count === 1 ? '' : 's'} elided (${gapStart}–${end - 1} of ${original.length}), ${shape}]`);
    shape = 'same shape';
    elided += count;
    gapStart = -1;
  };
  for (let index = 0; index < cleaned.length; index++) {
    if (kept.has(index)) {
      closeGap(index);
      result.push(cleaned[index]!);
    } else if (gapStart === -1) {
      gapStart = index;
    }
  }
  closeGap(cleaned.length);
  // A list of small values (thirty numbers) costs less whole than summarised.
  if (JSON.stringify(result).length > 0.7 * JSON.stringify(cleaned).length) return [...cleaned];
  summary.arrays++;
  summary.elidedRows += elided;
  summary.keptAnomalies += Math.max(0, kept.size - Math.min(HEAD_ROWS + 1, original.length));
  return result;
}
