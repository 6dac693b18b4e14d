/**
 * The folding key of a line: the line with its bookkeeping (timestamps, durations, ids,
 * hex, IP addresses and ports, long numbers) replaced by placeholders. Two lines with the
 * same key differ only in bookkeeping and may be folded into one with a count; paths,
 * identifiers, words and short numbers such as status codes are left in the key, so lines
 * differing in them never fold together.
 */
import { MAX_PATTERN_LINE_CHARS } from './limits';

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]{0,6}';
const WEEKDAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]{0,6}';

/** `id=…`, `pid: …`, `took=…`: the value of a bookkeeping key. */
const KEY_VALUE_PATTERN = /\b(pid|tid|uid|gid|id|sid|session|seq|thread|port|request_id|requestid|req_id|trace_id|traceid|span_id|txid|elapsed|took|time|duration|latency)([=:] ?)[\w.:-]{1,64}/gi;

/** Each pattern is linear: bounded repetitions, no nested quantifiers. */
const BOOKKEEPING_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b\d{8}-\d{1,2}:\d{2}:\d{2}(?::\d{1,6})?/g, '<time>'],
  [new RegExp(`\\b${WEEKDAY},? ${MONTH} {1,2}\\d{1,2}\\b`, 'g'), '<date>'],
  [new RegExp(`\\b${MONTH} {1,2}\\d{1,2}\\b`, 'g'), '<date>'],
  [/\b\d{4}[-/.]\d{2}[-/.]\d{2}\b/g, '<date>'],
  [new RegExp(`\\b\\d{1,2}/${MONTH}/\\d{4}\\b`, 'g'), '<date>'], // 19/Jul/2022 (web server access logs)
  [/\b\d{1,2}[-/.]\d{1,2}(?=[ T]\d{1,2}:\d{2})/g, '<date>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,:]\d{1,9})?(?: \d{4}\b)?/g, '<time>'], // a year may follow (Apache, ctime)
  [/\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g, '<uuid>'],
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g, '<ip>'],
  [/\b0x[0-9a-fA-F]{1,32}\b/g, '<hex>'],
  [/\b(?=[0-9a-f]{0,63}[a-f])(?=[0-9a-f]{0,63}\d)[0-9a-f]{7,64}\b/g, '<hex>'],
  [/\b\d{1,9}(?:\.\d{1,9})?\s?(?:ms|µs|us|ns|sec|secs|seconds|s)\b/g, '<duration>'],
  [/\b\d{1,15}(?:\.\d{1,9})?\s?(?:bytes|B|KB|MB|GB|KiB|MiB|GiB)\b/g, '<size>'],
  [KEY_VALUE_PATTERN, '$1$2<id>'],
  [/\b(req|request|pid|tid|thread|child|process|session|txn|trace|job|task|worker|conn|connection)( #?)\d{1,12}\b/gi, '$1$2<id>'],
  [/\[\d{1,10}\]/g, '[<n>]'],
  [/\d{5,}/g, '<n>'],
];

/**
 * The same bookkeeping masked, but a network address is who a line is about rather than when:
 * an IP address stays (only its port goes), and decimal readings (`0.38137424`) are masked as
 * measurements. What log templates are built on (see `logTemplates.ts`).
 */
const TEMPLATE_PATTERNS: readonly (readonly [RegExp, string])[] = BOOKKEEPING_PATTERNS.flatMap(([pattern, replacement]): (readonly [RegExp, string])[] => {
  if (replacement !== '<ip>') return [[pattern, replacement]];
  return [
    [/\b(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}\b/g, '$1:<port>'],
    [/(?<![\d.])\d{1,9}\.\d{1,9}(?![\d.])/g, '<num>'],
    // A standalone count of four digits or more (a response size, a pid, a sequence number).
    [/(?<![\w.:/-])\d{4,}(?![\w.:/-])/g, '<n>'],
  ];
});

/** The folding key of one line (see the module comment). Very long lines are their own key. */
export function bookkeepingKey(line: string): string {
  return masked(line, BOOKKEEPING_PATTERNS);
}

/** A line with its bookkeeping masked but its addresses kept (see `TEMPLATE_PATTERNS`). */
export function templateBookkeeping(line: string): string {
  return masked(line, TEMPLATE_PATTERNS);
}

/**
 * The folding keys of many lines, each what {@link bookkeepingKey} gives it. The lines that hold
 * a digit are masked together, joined by line breaks: one pass of each pattern over the whole
 * text instead of one per line (a regular expression's call costs more than a short line's
 * scan). No pattern of the text form matches a line break (`\s?` becomes a space other than one,
 * a line break is no word character for `\b`), so no match spans two lines and each line comes
 * out as it would alone. Lines without a digit take the one pattern that needs none, alone.
 */
export function bookkeepingKeys(lines: readonly string[]): string[] {
  const keys = new Array<string>(lines.length);
  const joined: number[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.length > MAX_PATTERN_LINE_CHARS || !/\d/.test(line) || line.includes('\n')) keys[index] = masked(line, BOOKKEEPING_PATTERNS);
    else joined.push(index);
  }
  if (joined.length === 0) return keys;
  let text = joined.map((index) => lines[index]!).join('\n');
  for (const [pattern, replacement] of TEXT_BOOKKEEPING_PATTERNS) text = text.replace(pattern, replacement);
  // With no space but ' ', tab and CR, folding every line's spaces is the same as folding each
  // line that needs it (a line that does not has single ' ' at most); other spaces, line by line.
  const exotic = /[^\S \t\n\r]/.test(text);
  if (!exotic) text = text.replace(/[^\S\n]+/g, ' ').replace(/^ | $/gm, '');
  const masks = text.split('\n');
  joined.forEach((index, at) => {
    keys[index] = exotic ? spacesFolded(masks[at]!) : masks[at]!;
  });
  return keys;
}

/** The bookkeeping patterns for lines joined by line breaks: `\s` cannot match one. */
const TEXT_BOOKKEEPING_PATTERNS: readonly (readonly [RegExp, string])[] = BOOKKEEPING_PATTERNS.map(([pattern, replacement]) => [new RegExp(pattern.source.replaceAll('\\s', '[^\\S\\n]'), pattern.flags), replacement]);

function spacesFolded(key: string): string {
  return /\s\s|^\s|\s$|[\t\r\n]/.test(key) ? key.replace(/\s+/g, ' ').trim() : key;
}

function masked(line: string, patterns: readonly (readonly [RegExp, string])[]): string {
  if (line.length > MAX_PATTERN_LINE_CHARS) return line;
  let key = line;
  // Every pattern but the key=value one needs a digit: lines without one skip them.
  if (/\d/.test(line)) {
    for (const [pattern, replacement] of patterns) key = key.replace(pattern, replacement);
  } else if (/[=:]/.test(line)) {
    key = key.replace(KEY_VALUE_PATTERN, '$1$2<id>');
  }
  return spacesFolded(key);
}

/** Severity words that mark a line a reader must never lose, and a web request answered 4xx or 5xx. */
const SEVERE_LINE = /\b(?:error|errors|fatal|warn|warning|critical|crit|severe|panic|emerg|emergency|alert)\b|\s[EWF]\s+[\w.$/-]{1,80}:|\[(?:error|warn|crit|alert|emerg)\]|HTTP\/\d(?:\.\d)?" [45]\d\d\b/i;

/** Whether a log line reports a warning or worse. */
export function isSevereLine(line: string): boolean {
  return SEVERE_LINE.test(line.length > MAX_PATTERN_LINE_CHARS ? line.slice(0, MAX_PATTERN_LINE_CHARS) : line);
}

/** Appends a fold count the way every cleaner writes it: `line [×21]`. */
export function withCount(text: string, count: number): string {
  return count > 1 ? `${text} [×${count}]` : text;
}
