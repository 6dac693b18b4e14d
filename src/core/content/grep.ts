/**
 * Grep hits (grep -rn, rg, git grep, ag): bucketed by file under one header line each,
 * exact line numbers kept; hits whose text differs only in bookkeeping fold into one
 * with every line number and a count, and hits of one shape past the first two fold to their
 * line numbers (grepShapes.ts). Output that does not parse as hits is left alone.
 */
import { bookkeepingKey, withCount } from './bookkeeping';
import { shapeFolds, tellingWords } from './grepShapes';
import { MAX_PATTERN_LINE_CHARS, splitLines, stripAnsi, trailingNewline } from './limits';
import { mentionsAny, questionWords } from './question';
import { cleanResult, unchanged, type CleanResult } from './types';
import { checkDeadline } from '../pipeline/deadline';

/** Distinct findings shown per file; folding runs first, so the cap counts findings, not repeats. */
export const MAX_FINDINGS_PER_FILE = 100;
/** Line numbers listed for one folded finding before switching to a first–last span. */
const LISTED_LINE_NUMBERS = 8;

interface Hit {
  readonly path: string;
  readonly line?: number;
  readonly context: boolean;
  readonly text: string;
}

const WITH_LINE = /^([^:\n]{1,500}?)([:-])(\d{1,9})\2(.*)$/;
const WITHOUT_LINE = /^([^:\s][^:\n]{0,499}?\.[\w]{1,10}|[^:\s][^:\n]{0,499}?\/[^:\n]{1,200}?):(.*)$/;

/** Parses grep-style lines; `undefined` for lines that are not hits. */
export function parseGrepLine(line: string, headingPath?: string): Hit | undefined {
  // Patterns only see the start of the line, where the path and line number are; a hit on
  // a minified file can be megabytes long.
  const head = line.length > MAX_PATTERN_LINE_CHARS ? line.slice(0, MAX_PATTERN_LINE_CHARS) : line;
  const rest = line.slice(head.length);
  if (headingPath !== undefined) {
    const numbered = /^(\d{1,9})([:-])(.*)$/.exec(head);
    if (numbered !== null) return { path: headingPath, line: Number(numbered[1]), context: numbered[2] === '-', text: numbered[3]! + rest };
  }
  const bare = headingPath === undefined ? /^(\d{1,9})([:-])(.*)$/.exec(head) : null;
  // grep -n on one file prints no path: the hits belong to the file the command named.
  if (bare !== null) return { path: '', line: Number(bare[1]), context: bare[2] === '-', text: bare[3]! + rest };
  const numbered = WITH_LINE.exec(head);
  if (numbered !== null && !/\s$/.test(numbered[1]!)) return { path: numbered[1]!, line: Number(numbered[3]), context: numbered[2] === '-', text: numbered[4]! + rest };
  const plain = WITHOUT_LINE.exec(head);
  if (plain !== null && !/\s/.test(plain[1]!)) return { path: plain[1]!, context: false, text: plain[2]! + rest };
  return undefined;
}

interface Finding {
  readonly text: string;
  readonly context: boolean;
  readonly lines: number[];
  count: number;
}

/** Buckets hits by file and folds repeats. */
export function cleanGrep(text: string, options: { question?: string } = {}): CleanResult {
  const words = questionWords(options.question);
  const lines = splitLines(stripAnsi(text));
  const parsed: (Hit | string)[] = [];
  let headingPath: string | undefined;
  let pendingHeading: string | undefined;
  for (const line of lines) {
    checkDeadline();
    if (line === '--' || line.trim() === '') {
      if (pendingHeading !== undefined) parsed.push(pendingHeading);
      pendingHeading = undefined;
      if (line.trim() === '') headingPath = undefined;
      continue;
    }
    const hit = parseGrepLine(line, headingPath);
    if (hit !== undefined) {
      pendingHeading = undefined;
      parsed.push(hit);
      continue;
    }
    if (pendingHeading !== undefined) parsed.push(pendingHeading);
    // rg prints the file name alone above its hits when writing to a terminal; it counts
    // as a heading only once a numbered hit follows it.
    pendingHeading = /^[^\s:][^:]{0,499}$/.test(line) && /[./]/.test(line) ? line : undefined;
    headingPath = pendingHeading;
    if (pendingHeading === undefined) parsed.push(line);
  }
  if (pendingHeading !== undefined) parsed.push(pendingHeading);
  // "name-12-text" is a context line only in a file that also has real matches; otherwise
  // it is a name with dashes and digits in it (cpython-39-x86_64…).
  const matchedPaths = new Set(parsed.flatMap((entry) => (typeof entry !== 'string' && !entry.context ? [entry.path] : [])));
  const files = new Map<string, Map<string, Finding>>();
  let unparsed = 0;
  let hits = 0;
  for (const entry of parsed) {
    if (typeof entry === 'string' || (entry.context && !matchedPaths.has(entry.path))) {
      unparsed++;
      continue;
    }
    const hit = entry;
    hits++;
    let findings = files.get(hit.path);
    if (findings === undefined) {
      findings = new Map();
      files.set(hit.path, findings);
    }
    const key = `${hit.context ? '-' : ':'}${bookkeepingKey(hit.text)}`;
    const finding = findings.get(key);
    if (finding === undefined) findings.set(key, { text: hit.text, context: hit.context, lines: hit.line === undefined ? [] : [hit.line], count: 1 });
    else {
      finding.count++;
      if (hit.line !== undefined) finding.lines.push(hit.line);
    }
  }
  // Anything but hits means this is not grep output: leave it alone.
  if (hits === 0 || unparsed > 0) return unchanged(text, 'grep');
  const output: string[] = [];
  let folded = 0;
  let capped = 0;
  let shaped = 0;
  const telling = tellingWords(words, [...files.values()].flatMap((findings) => [...findings.values()].map((finding) => finding.text)));
  for (const [path, findings] of files) {
    const total = [...findings.values()].reduce((sum, finding) => sum + (finding.context ? 0 : finding.count), 0);
    if (path !== '') output.push(`${path} (${total} hit${total === 1 ? '' : 's'})`);
    const indent = path === '' ? '' : '  ';
    // Findings that mention the question are never capped away.
    const all = [...findings.values()];
    const shown = new Set(all.filter((finding, index) => index < MAX_FINDINGS_PER_FILE || mentionsAny(finding.text, words)));
    const list = all.filter((finding) => shown.has(finding));
    const rest = all.filter((finding) => !shown.has(finding));
    // Shapes fold only where there is no context: a context line belongs to the hit beside it.
    const folds = list.some((finding) => finding.context) ? new Map<number, number[]>() : shapeFolds(list.map((finding) => finding.text), (text) => mentionsAny(text, telling));
    const foldedAway = new Set([...folds.values()].flat());
    list.forEach((finding, index) => {
      if (foldedAway.has(index)) return;
      folded += finding.count - 1;
      const label = lineLabel(finding.lines);
      // The hit's text stays byte for byte: indentation is part of code.
      const body = label === '' ? finding.text : `${label}${finding.context ? '-' : ':'}${finding.text}`;
      output.push(`${indent}${withCount(body, finding.count)}`);
      const away = folds.get(index);
      if (away === undefined) return;
      const lines = away.flatMap((at) => list[at]!.lines).sort((a, b) => a - b);
      const matches = away.reduce((sum, at) => sum + list[at]!.count, 0);
      shaped += matches;
      output.push(`${indent}… ${matches} more hit${matches === 1 ? '' : 's'} of the same shape${lines.length > 0 ? ` (line${lines.length === 1 ? '' : 's'} ${lines.join(',')})` : ''}`);
    });
    if (rest.length > 0) {
      const matches = rest.reduce((sum, finding) => sum + finding.count, 0);
      capped += matches;
      output.push(`${indent}… ${rest.length} more distinct hits (${matches} matches) in this file`);
    }
  }
  const removed: string[] = [`${hits} hits bucketed into ${files.size} file${files.size === 1 ? '' : 's'}`];
  if (folded > 0) removed.push(`${folded} repeated hits folded`);
  if (shaped > 0) removed.push(`${shaped} hits folded into their shape (two of each shown, the rest by line number)`);
  if (capped > 0) removed.push(`${capped} hits past the per-file cap of ${MAX_FINDINGS_PER_FILE} distinct findings`);
  const cleaned = output.join('\n') + trailingNewline(text);
  if (cleaned.length >= text.length) return unchanged(text, 'grep');
  return cleanResult(text, cleaned, 'grep', removed);
}

function lineLabel(lines: readonly number[]): string {
  if (lines.length === 0) return '';
  if (lines.length <= LISTED_LINE_NUMBERS) return lines.join(',');
  return `${lines[0]}–${lines[lines.length - 1]} (${lines.length} lines)`;
}
