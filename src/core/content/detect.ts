/**
 * Format detection: the command or path hint first (the command that printed the text is
 * the best evidence), then the content's shape. Looks at a bounded sample only.
 */
import { bookkeepingKeys } from './bookkeeping';
import { shareSettles } from './lineShare';
import { isFrameLine } from './stackTrace';
import { looksLikeTestReport } from './testReports';
import type { ContentFormat, ContentHint } from './types';

/** Characters of the content examined for its shape. */
const SAMPLE_CHARS = 64_000;
/** Lines of the sample examined line by line. */
const SAMPLE_LINES = 400;

const TEST_COMMAND = /(?:^|[\s/])(?:pytest|py\.test|jest|vitest|mocha|ava|tap|karma|jasmine|phpunit|rspec|ctest|nextest|tox|nox)(?:\s|$)|\bgo test\b|\bcargo (?:test|nextest)\b|\b(?:npm|yarn|pnpm|bun)(?: run)? test\b|\bpython\d?(?:\.\d+)? -m (?:pytest|unittest)\b|\bmanage\.py test\b|\bnode --test\b|\b(?:deno|bun) test\b|\bdotnet test\b|\b(?:mvn|gradle|gradlew|\.\/gradlew)\b.*\btest\b|\bmake (?:test|check)\b|\bruntests\.py\b|\btests?\/runtests\b/;
const GREP_COMMAND = /(?:^|[\s|;&(])(?:grep|egrep|fgrep|rg|ag|ack|git grep)\s/;
const DIFF_COMMAND = /\bgit (?:diff|show|log -p|format-patch)\b|(?:^|[\s|;&])diff\s/;
const LISTING_COMMAND = /^(?:ls|find|tree|fd|git ls-files|du)\b/;
const LOG_COMMAND = /\b(?:journalctl|dmesg|docker(?: compose)? logs|kubectl logs|tail -[fn]|logcat)\b/;

/** The command's segments, without `cd … &&` prefixes and the pagers after a pipe. */
function mainSegments(command: string): string[] {
  return command.split(/&&|\|\||;|\|/).map((segment) => segment.trim()).filter((segment) => segment !== '' && !/^(?:cd|export|source|set|echo|head|tail(?! -f)|sort|uniq|wc|cat|less|more|tee|cut|tr|xargs\s*$)\b/.test(segment));
}

function fromCommand(command: string): ContentFormat | undefined {
  const text = command.slice(0, 2_000);
  // The output has the shape of the command that produced it: in `ls -R | grep .py` that is ls.
  const producer = mainSegments(text)[0];
  if (producer === undefined) return TEST_COMMAND.test(text) ? 'test-output' : undefined;
  if (TEST_COMMAND.test(producer)) return 'test-output';
  if (GREP_COMMAND.test(` ${producer}`)) return 'grep';
  if (DIFF_COMMAND.test(producer)) return 'diff';
  if (LOG_COMMAND.test(producer)) return 'log';
  if (LISTING_COMMAND.test(producer)) return 'file-listing';
  if (TEST_COMMAND.test(text)) return 'test-output';
  return undefined;
}

function fromPath(path: string, sample: string): ContentFormat | undefined {
  const lower = path.toLowerCase();
  if (/\.(?:html?|xhtml)$/.test(lower)) return 'html';
  if (/\.(?:diff|patch)$/.test(lower)) return 'diff';
  if (/\.log$|\.log\.\d+$/.test(lower)) return 'log';
  if (/\.(?:xml|trx|json|jsonl)$/.test(lower) && looksLikeTestReport(sample)) return 'test-output';
  if (/\.json$/.test(lower)) return 'json';
  return undefined;
}

/** Detects the format from the command/path hint first, then the content's shape. */
export function detectContentFormat(text: string, hint: ContentHint = {}): ContentFormat {
  return formatFromHint(text, hint) ?? formatFromShape(text);
}

/** The format the command or path hint says, undefined when neither settles it (the shape decides then). */
export function formatFromHint(text: string, hint: ContentHint): ContentFormat | undefined {
  const byCommand = hint.command !== undefined ? fromCommand(hint.command) : undefined;
  if (byCommand !== undefined) return byCommand;
  return hint.path !== undefined ? fromPath(hint.path, sampleOf(text)) : undefined;
}

/** The format the content's shape says, whatever printed it (the format with no hint). */
export function formatFromShape(text: string): ContentFormat {
  return fromShape(text, sampleOf(text));
}

function sampleOf(text: string): string {
  return text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
}

/** A line with something besides spaces (what `line.trim() !== ''` tells, without a copy of the line). */
const NOT_BLANK = /\S/;

function fromShape(text: string, sample: string): ContentFormat {
  const trimmed = sample.trimStart();
  if (trimmed === '') return 'text';
  if (looksLikeTestReport(sample)) return 'test-output';
  // A page, or a big fragment; a script printing a small <select> is data the agent is debugging.
  if ((text.length >= 2_000 && /^(?:<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(trimmed)) || (text.length >= 4_000 && /^<[a-z]/i.test(trimmed) && (sample.match(/<\/(?:div|p|span|a|li|td|section)>/gi) ?? []).length >= 20)) return 'html';
  if (/^[[{]/.test(trimmed) && isJson(text)) return 'json';
  const lines = sample.split('\n', SAMPLE_LINES);
  const nonBlank = lines.filter((line) => NOT_BLANK.test(line));
  if (nonBlank.length === 0) return 'text';
  const starts = lineStarts(sample);
  if (starts('@@ -') && (starts('diff --git ') || starts('Index: ') || starts('--- ')) && /^diff --git |^Index: |^--- \S.*\n\+\+\+ \S.*\n@@ /m.test(sample) && /^@@ -\d+/m.test(sample)) return 'diff';
  if (looksLikeTestConsole(sample, starts)) return 'test-output';
  // A file view's numbered lines pass none of the frame, grep, log or path predicates below: only the other lines are read for them.
  const others = withoutViewLines(nonBlank);
  const frames = others.filter(isFrameLine).length;
  if (frames >= 2 && /^Traceback \(most recent call last\):|^goroutine \d+ \[|^thread '.*' panicked at|^Exception in thread |^\s+at \S[^\n]{0,300}:\d+(?::\d+)?\)$/m.test(sample)) return 'stack-trace';
  if (frames >= 3 && frames >= nonBlank.length * 0.4) return 'stack-trace';
  // A share of all the lines; the view lines left out of `others` count as failing.
  const reaching = (threshold: number) => (count: number): boolean => count / nonBlank.length >= threshold;
  const share = (predicate: (line: string) => boolean, threshold: number): boolean => shareSettles(others, predicate, reaching(threshold));
  const everyShare = (predicate: (line: string) => boolean, threshold: number): boolean => shareSettles(nonBlank, predicate, reaching(threshold));
  // A hit starts with a path (no spaces, a dot or a slash in it), so "18:01:47" is no hit.
  // With context (-C, -A, -B) grep and rg print `path-12-text` around the `path:13:text` hits.
  if (nonBlank.length >= 2 && share((line) => /^[^\s:]{0,300}[./][^\s:]{0,300}:\d{1,9}[:-]/.test(line) || line === '--', 0.6)) return 'grep';
  if (nonBlank.length >= 2 && share((line) => /^[^\s:]{0,300}[./][^\s:]{0,300}:\d{1,9}:/.test(line), 0.2) && share((line) => /^[^\s:]{0,300}[./][^\s:]{0,300}(?::\d{1,9}[:-]|-\d{1,9}-)/.test(line) || line === '--', 0.9)) return 'grep';
  // A tree's branches may follow a view line's number (a file that holds a tree): every line is read.
  if (nonBlank.length >= 5 && everyShare((line) => /[├└]── |^[|`]-- |^\s*│/.test(line), 0.5)) return 'file-listing';
  if (nonBlank.length >= 5 && share((line) => /^[-dl][-rwxsStT]{9}[@+.]?\s+\d+\s/.test(line) || /^total \d+$/.test(line), 0.7)) return 'file-listing';
  if (nonBlank.length >= 5 && share((line) => /^(?:\.{0,2}\/)?[\w.@+-]+(?:\/[\w.@+-]+)+\/?$|^[\w./-]+:$/.test(line), 0.8)) return 'file-listing';
  if (nonBlank.length >= 5 && share(looksLikeLogLine, 0.6)) return 'log';
  // Structured logging: one JSON object per line with a level, message or time field.
  if (nonBlank.length >= 5 && share((line) => /^\{.*\}$/.test(line.trim()) && /"(?:level|lvl|severity|msg|message|time|ts|timestamp|@timestamp)"\s*:/.test(line), 0.8)) return 'log';
  if (nonBlank.length >= 10 && everyShare((line) => /\d/.test(line), 0.5) && repeatsHalf(nonBlank)) return 'log';
  if (text.length >= 2_000 && (startsAsDocument(trimmed) || isMinified(sample)) && isMarkupDense(sample)) return 'html';
  return 'text';
}

/**
 * A document's opening (doctype or html element) at the start of a line near the top: after
 * a status line and headers, say. Quoted inside a line (a test's failure message) it is not.
 */
function startsAsDocument(trimmed: string): boolean {
  return /(?:^|\n)[ \t]*(?:<!doctype html|<html[\s>])/i.test(trimmed.slice(0, 2_000));
}

/**
 * Laid out as a minified page or a response body is: few line breaks for its length. Source
 * code, Markdown and logs that carry tags are laid out in short lines and are not read as a
 * page by their tags alone.
 */
function isMinified(sample: string): boolean {
  let breaks = 0;
  for (let index = sample.indexOf('\n'); index !== -1; index = sample.indexOf('\n', index + 1)) breaks++;
  return sample.length / (breaks + 1) >= MINIFIED_LINE_CHARS;
}

/** Mean line length from which text counts as laid out on long lines (minified). */
const MINIFIED_LINE_CHARS = 400;

/** Elements a page is built from (names as HTML has them: XML's and JSX components' are not counted). */
const HTML_ELEMENTS = new Set([
  'html', 'head', 'body', 'div', 'span', 'p', 'a', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tr', 'td', 'th',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'aside', 'nav', 'header', 'footer', 'main', 'figure', 'figcaption', 'img',
  'br', 'hr', 'form', 'input', 'button', 'label', 'select', 'option', 'strong', 'em', 'b', 'i', 'code', 'pre', 'blockquote', 'meta',
  'link', 'title', 'iframe', 'noscript', 'svg', 'picture', 'source', 'time', 'small', 'sup', 'sub', 'script', 'style',
]);
/** An attribute value in escaped quotes. */
const ESCAPED_ATTRIBUTE = /=\\+"/;
/** Source code that contains tags (JSX, TSX, template components): imports, exports, arrow functions, JSX attributes. */
const SOURCE_CODE = /^[ \t]*(?:import\s[^\n]{0,300}\bfrom\s*['"]|export\s+(?:default|const|function|class)\b|(?:const|let|var)\s+\w+\s*=\s*\()|\bclassName=|=>\s*[({]|\breturn\s*\(\s*<|\buseState\(/m;

/**
 * A page or a big fragment recognised by what it is made of, whatever its layout: a minified
 * page on one line, a response body after its headers, a fragment that starts with text.
 * Enough tags of several HTML elements, most of what is not script or style being markup,
 * and nothing between the tags that reads as source code. One forward scan.
 */
function isMarkupDense(sample: string): boolean {
  const lower = sample.toLowerCase();
  let elementTags = 0;
  let escapedTags = 0;
  let plainQuotedTags = 0;
  let markupChars = 0;
  let rawChars = 0;
  const names = new Set<string>();
  const between: string[] = [];
  let textStart = 0;
  let position = lower.indexOf('<');
  let nextClose = -1;
  let nextEquals = 0;
  while (position !== -1) {
    const following = lower.indexOf('<', position + 1);
    if (nextClose < position) nextClose = lower.indexOf('>', position);
    if (nextClose === -1) break;
    // A tag ends before the next '<'; an attribute may be long (a whole data: URL).
    const isTag = following === -1 || nextClose < following;
    const nameStart = lower.charCodeAt(position + 1) === 47 /* / */ ? position + 2 : position + 1;
    const first = lower.charCodeAt(nameStart);
    if (!isTag || !((first >= 97 && first <= 122) || first === 33 /* ! */)) {
      position = following;
      continue;
    }
    let nameEnd = nameStart;
    while (nameEnd < nextClose && /[a-z0-9-]/.test(lower[nameEnd]!)) nameEnd++;
    const name = lower.slice(nameStart, nameEnd);
    if (between.length < 2_000) between.push(sample.slice(textStart, position));
    markupChars += nextClose + 1 - position;
    if (HTML_ELEMENTS.has(name)) {
      elementTags++;
      if (nextEquals !== -1 && nextEquals < position) nextEquals = lower.indexOf('=', position);
      if (nextEquals !== -1 && nextEquals < nextClose) {
        const tag = lower.slice(position, nextClose);
        if (ESCAPED_ATTRIBUTE.test(tag)) escapedTags++;
        else if (/=["']/.test(tag)) plainQuotedTags++;
      }
      if (names.size < 4) names.add(name);
    }
    let resume = nextClose + 1;
    // Scripts, styles and comments are set aside whole, to their end or to the end of the sample.
    const rawEnd = nameStart === position + 1 && (name === 'script' || name === 'style') ? `</${name}` : lower.startsWith('<!--', position) ? '-->' : undefined;
    if (rawEnd !== undefined) {
      const end = lower.indexOf(rawEnd, rawEnd === '-->' ? position + 4 : resume);
      const stop = end === -1 ? lower.length : end;
      if (stop > resume) rawChars += stop - resume;
      resume = Math.max(resume, stop);
    }
    textStart = resume;
    position = lower.indexOf('<', resume);
  }
  if (elementTags < 20 || names.size < 4) return false;
  // Tags whose attributes are written `=\"…\"` are markup quoted inside a string (a log
  // line, a test's failure message, a source literal): the text around it is what counts.
  if (escapedTags > plainQuotedTags) return false;
  if (markupChars < (sample.length - rawChars) * 0.15) return false;
  return !SOURCE_CODE.test(between.join('\n'));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function looksLikeTestConsole(sample: string, starts: (prefix: string) => boolean): boolean {
  // Each summary starts a line with a word of its own; a text without one at any line's start
  // skips that summary's expression (a file read has none of them).
  return (
    (starts('=') && /^=+ (?:test session starts|FAILURES|ERRORS|short test summary info)\b.*=+$/m.test(sample)) ||
    (starts('=') && /^=+ .*\b\d+ (?:passed|failed|error|errors)\b.*=+$/m.test(sample)) ||
    (starts('Test') && /^Tests?:\s+(?:\d+ (?:failed|passed|skipped|todo|total),?\s*)+/m.test(sample)) ||
    ((starts('Test') || starts(' Test')) && /^ ?(?:Test Files|Tests)\s+\d+ (?:failed|passed)/m.test(sample)) ||
    (starts('test result: ') && /^test result: (?:ok|FAILED)\. \d+ passed/m.test(sample)) ||
    ((starts('--- ') || starts('=== ')) && /^(?:---|===) (?:FAIL|PASS|RUN):? \S/m.test(sample) && /^(?:ok|FAIL)\s+\S+\s+[\d.]+s$|^(?:PASS|FAIL)$/m.test(sample)) ||
    (sample.includes(' passing (') && /^\s*\d+ passing \(\d+/m.test(sample)) ||
    (starts('1..') && /^(?:not )?ok \d+ /m.test(sample) && /^1\.\.\d+$/m.test(sample)) ||
    (starts('Ran ') && /^Ran \d+ tests? in [\d.]+s$/m.test(sample) && /^(?:OK|FAILED)\b/m.test(sample)) ||
    ((starts('PASS') || starts('FAIL')) && /^(?:PASS|FAIL) {1,2}\S+\.(?:test|spec)\.[jt]sx?\b/m.test(sample))
  );
}

/**
 * Whether a line of `text` starts with a prefix, as `^` in a multiline expression reads lines
 * (after \n, \r, U+2028 or U+2029). A text with a line break other than \n answers yes to
 * every prefix: its expressions are then all run.
 */
function lineStarts(text: string): (prefix: string) => boolean {
  if (text.includes('\r') || text.includes('\u2028') || text.includes('\u2029')) return () => true;
  // The ASCII characters that open a line, found in one pass: a prefix whose first character
  // opens none is answered without a search of the text (a dozen prefixes are asked of each).
  const opening = new Uint8Array(128);
  const first = text.charCodeAt(0);
  if (first < 128) opening[first] = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    const code = text.charCodeAt(at + 1);
    if (code < 128) opening[code] = 1;
  }
  return (prefix) => {
    const code = prefix.charCodeAt(0);
    if (code < 128 && opening[code] === 0) return false;
    return text.startsWith(prefix) || text.includes(`\n${prefix}`);
  };
}

const LOG_LINE_START: readonly RegExp[] = [
  /^\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}/, // 2015-10-18 18:01:47
  /^\[?\d{1,2}[-/.]\d{1,2}[ T]\d{2}:\d{2}:\d{2}/, // 03-17 16:13:38, [10.30 16:49:06]
  /^\[?(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* +(?:\w+ +)?\d{1,2} \d{2}:\d{2}/, // syslog, Apache
  /^\d{8}-\d{1,2}:\d{2}:\d{2}/, // 20171223-22:15:29
  /^\d{5,}\s.*\b1\d{9}\b/, // HPC: id … epoch
  /^\[?\d{2}:\d{2}:\d{2}/, // 18:01:47 …
  /^\s*(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b[\s:[]/, // level first
  /^\[(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\]/i,
  /^\d{10}(?:\.\d+)?\s/, // epoch seconds
  /^\S+ \S+ \S+ \[\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "/, // web server access log (common and combined formats)
];

/**
 * The lines that are not a file view's numbered lines (`    12→code`: whitespace, digits, the
 * arrow). Such a line opens with whitespace and then a digit, which no frame, grep hit, log line,
 * structured log line or bare path can (each expression is anchored at the line's start and wants
 * something else there); without the whitespace, six digits and more could start a grep hit. The
 * same array when there is none.
 */
function withoutViewLines(lines: readonly string[]): readonly string[] {
  let kept: string[] | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (!isViewLine(line)) {
      kept?.push(line);
      continue;
    }
    kept ??= lines.slice(0, index);
  }
  return kept ?? lines;
}

function isViewLine(line: string): boolean {
  let at = 0;
  while (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9) at++;
  if (at === 0) return false;
  const digits = at;
  while (line.charCodeAt(at) >= 48 && line.charCodeAt(at) <= 57) at++;
  return at > digits && line.charCodeAt(at) === VIEW_ARROW;
}

function looksLikeLogLine(line: string): boolean {
  if (line.length > 4_000) return false;
  for (const pattern of LOG_LINE_START) if (pattern.test(line)) return true;
  return /^\s+at |^\s+\.\.\. \d+ more|^Caused by/.test(line);
}

/** The arrow a file view prints between a line's number and its text (Claude Code's Read). */
const VIEW_ARROW = 0x2192;

/**
 * How many lines open with a distinct number of one to four digits and an arrow (`    12→code`,
 * a file view), counted only until they are more than half the lines. Each keeps its number in
 * its bookkeeping key (no pattern masks a short number that opens a line before the arrow;
 * `bookkeeping.test.ts` holds the keys of every real such line to it), so these lines have
 * distinct keys, and past half of them the text cannot repeat half its keys.
 */
function numberedLines(lines: readonly string[]): number {
  const numbers = new Set<number>();
  for (const line of lines) {
    let at = 0;
    while (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9) at++;
    let value = 0;
    const start = at;
    while (at - start < 5) {
      const code = line.charCodeAt(at);
      if (code < 48 || code > 57) break;
      value = value * 10 + code - 48;
      at++;
    }
    if (at === start || at - start > 4 || line.charCodeAt(at) !== VIEW_ARROW) continue;
    numbers.add(value);
    if (numbers.size > lines.length / 2) break;
  }
  return numbers.size;
}

/**
 * Whether at least half the lines repeat another's bookkeeping key. The count stops once more
 * than half are distinct: most texts (a file read, a listing) repeat little and are settled halfway.
 */
function repeatsHalf(lines: readonly string[]): boolean {
  if (numberedLines(lines) > lines.length / 2) return false;
  // The first half and one line more settle a text whose lines are all distinct (most are).
  const head = Math.floor(lines.length / 2) + 1;
  const keys = new Set(bookkeepingKeys(lines.slice(0, head)));
  if (keys.size > lines.length / 2) return false;
  for (const key of bookkeepingKeys(lines.slice(head))) keys.add(key);
  return 1 - keys.size / lines.length >= 0.5;
}
