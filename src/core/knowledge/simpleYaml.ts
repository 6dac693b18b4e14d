/**
 * Front matter as most pages write it, read without the full YAML parser: `key: value`
 * lines whose values are plain words, quoted strings or `[a, b]` lists, and `key:` lines
 * followed by `- item` lines. Anything else (comments, nesting, escapes, numbers, anchors,
 * tabs, repeated keys…) is left to the `yaml` package: the reader answers undefined. What it
 * does answer is what `yaml` gives for the same text (a property test holds it to that),
 * about twenty times sooner, which counts when a library of thousands of pages is built.
 */

/** The mapping the text holds, or undefined when the text is outside the simple form. */
export function parseSimpleYaml(text: string): Record<string, unknown> | undefined {
  if (text.length === 0 || UNSUPPORTED_CHARACTER.test(text)) return undefined;
  const result: Record<string, unknown> = {};
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (trimSpaces(line) === '') continue;
    const match = KEY_LINE.exec(line);
    if (!match) return undefined;
    const key = match[1]!;
    // A null or boolean word as a key is a null or boolean key to YAML, named otherwise in JavaScript.
    if (Object.prototype.hasOwnProperty.call(result, key) || key === '__proto__' || RESERVED_WORDS.has(key) || key === 'true' || key === 'false') return undefined;
    const rest = trimSpaces(match[2] ?? '');
    if (rest !== '') {
      const value = rest.startsWith('[') ? flowList(rest) : scalar(rest, false);
      if (value === undefined) return undefined;
      result[key] = value;
      continue;
    }
    // `key:` then `- item` lines, all at one indentation.
    const items: unknown[] = [];
    let indent: string | undefined;
    while (index + 1 < lines.length) {
      const item = ITEM_LINE.exec(lines[index + 1]!);
      if (!item) break;
      if (indent === undefined) indent = item[1]!;
      else if (item[1] !== indent) return undefined;
      const value = scalar(trimSpaces(item[2]!), false);
      if (value === undefined) return undefined;
      items.push(value);
      index++;
    }
    // A key with nothing under it is null in YAML; the full parser says what the schema makes of that.
    if (items.length === 0) return undefined;
    result[key] = items;
  }
  return result;
}

/** Comments, tabs, carriage returns, control characters, byte order marks and document markers: left to the full parser. */
const UNSUPPORTED_CHARACTER = /[#\t\r\\\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|^(---|\.\.\.)/mu;
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/;
const ITEM_LINE = /^( *)- (.*)$/;

/**
 * One value: a double- or single-quoted string without quotes or escapes inside, `true` or
 * `false`, a YAML-1.2 date, or a plain string that no core-schema rule reads as anything else
 * (it starts with a letter, holds no ": ", is no null or boolean word). In a flow list,
 * plain strings also hold none of `,:[]{}`.
 */
function scalar(text: string, inFlow: boolean): unknown {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    const inner = text.slice(1, -1);
    return inner.includes('"') ? undefined : inner;
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) {
    const inner = text.slice(1, -1);
    return inner.includes("'") ? undefined : inner;
  }
  if (text === 'true') return true;
  if (text === 'false') return false;
  // A date stays a string under the core schema (only YAML 1.1 reads timestamps).
  if (DATE.test(text)) return text;
  if (!PLAIN_START.test(text) || RESERVED_WORDS.has(text) || text.includes(': ') || text.endsWith(':')) return undefined;
  if (inFlow && /[,:[\]{}]/.test(text)) return undefined;
  return text;
}

const PLAIN_START = /^\p{L}/u;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Words the core schema reads as null or booleans in spellings other than `true` and `false`. */
const RESERVED_WORDS: ReadonlySet<string> = new Set(['null', 'Null', 'NULL', 'True', 'TRUE', 'False', 'FALSE']);

/** `[a, "b c", d]`: items split at commas outside quotes; undefined for anything nested or left over. */
function flowList(text: string): unknown[] | undefined {
  if (!text.endsWith(']')) return undefined;
  const inner = text.slice(1, -1);
  if (trimSpaces(inner) === '') return [];
  const items: unknown[] = [];
  let at = 0;
  while (at <= inner.length) {
    while (inner[at] === ' ') at++;
    let end: number;
    const quote = inner[at];
    if (quote === '"' || quote === "'") {
      const close = inner.indexOf(quote, at + 1);
      if (close < 0) return undefined;
      end = close + 1;
      while (inner[end] === ' ') end++;
      if (end < inner.length && inner[end] !== ',') return undefined;
    } else {
      end = inner.indexOf(',', at);
      if (end < 0) end = inner.length;
    }
    const value = scalar(trimSpaces(inner.slice(at, end)), true);
    if (value === undefined) return undefined;
    items.push(value);
    // A trailing comma, or a comma with nothing before the next one, is left to the full parser.
    if (end >= inner.length) break;
    at = end + 1;
    if (trimSpaces(inner.slice(at)) === '') return undefined;
  }
  return items;
}

/** Spaces off both ends: YAML trims spaces only, where `String.trim` also takes no-break spaces and the like. */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === ' ') start++;
  while (end > start && text[end - 1] === ' ') end--;
  return text.slice(start, end);
}
