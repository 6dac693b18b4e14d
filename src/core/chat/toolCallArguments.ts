/**
 * The string values inside a tool call's arguments, read and replaced without touching
 * anything else. Arguments come as an object (Anthropic, VS Code) or as the JSON text the
 * model wrote (OpenAI): for an object the values are its string leaves in traversal order
 * (keys in their order, arrays by index); for a JSON text they are the string values as they
 * stand in it, and a replacement rewrites only that value's literal, so every other byte of
 * the text stays as the model wrote it. Keys are never values: the arguments keep their keys.
 */

/** Where a value sits in the arguments: keys and array indexes from the top. */
export type ArgumentPath = readonly (string | number)[];

/** One string value of the arguments and where it sits. */
export interface ArgumentString {
  readonly path: ArgumentPath;
  readonly value: string;
}

/** One string value of a JSON text. */
export interface JsonStringValue extends ArgumentString {
  /** Offset of the literal's opening quote in the text. */
  readonly start: number;
  /** Offset just past the literal's closing quote. */
  readonly end: number;
  /** True when `JSON.stringify(value)` writes the literal back byte for byte (no optional escapes such as `\u00e9` or `\/`). */
  readonly canonical: boolean;
}

/** The string values of tool-call arguments, in order; none when the arguments hold no strings or are not valid JSON. */
export function argumentStrings(args: unknown): string[] {
  return argumentEntries(args).map((entry) => entry.value);
}

/** The string values of tool-call arguments with their paths, in the order {@link argumentStrings} gives. */
export function argumentEntries(args: unknown): ArgumentString[] {
  if (typeof args === 'string') return jsonStringValues(args) ?? [];
  const out: ArgumentString[] = [];
  collect(args, [], out);
  return out;
}

/**
 * The arguments with their string values replaced by `values` (same count and order as
 * {@link argumentStrings} gives). A value that does not change keeps its bytes; the input is never mutated.
 */
export function withArgumentStrings(args: unknown, values: readonly string[]): unknown {
  if (typeof args === 'string') {
    const entries = jsonStringValues(args);
    if (!entries || entries.length !== values.length) throw new Error(`Herald: tool-call arguments hold ${entries?.length ?? 0} string values, ${values.length} were given`);
    let out = '';
    let at = 0;
    entries.forEach((entry, index) => {
      if (values[index] === entry.value) return;
      out += args.slice(at, entry.start) + JSON.stringify(values[index]);
      at = entry.end;
    });
    return at === 0 ? args : out + args.slice(at);
  }
  let next = 0;
  const replaced = rebuild(args, () => values[next++]!);
  if (next !== values.length) throw new Error(`Herald: tool-call arguments hold ${next} string values, ${values.length} were given`);
  return replaced;
}

/** The string values of a JSON text with where they stand, or undefined when the text is not valid JSON. */
export function jsonStringValues(text: string): JsonStringValue[] | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  // The text is valid JSON, so a scan that follows containers, keys and commas is enough.
  const values: JsonStringValue[] = [];
  const frames: { array: boolean; key: string | number; expectKey: boolean }[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      const end = literalEnd(text, index);
      const literal = text.slice(index, end);
      const value = JSON.parse(literal) as string;
      const top = frames[frames.length - 1];
      if (top && !top.array && top.expectKey) top.key = value;
      else values.push({ path: frames.map((frame) => frame.key), value, start: index, end, canonical: JSON.stringify(value) === literal });
      index = end;
      continue;
    }
    const top = frames[frames.length - 1];
    if (char === '{') frames.push({ array: false, key: '', expectKey: true });
    else if (char === '[') frames.push({ array: true, key: 0, expectKey: false });
    else if (char === '}' || char === ']') frames.pop();
    else if (char === ':' && top) top.expectKey = false;
    else if (char === ',' && top) {
      if (top.array) top.key = (top.key as number) + 1;
      else top.expectKey = true;
    }
    index++;
  }
  return values;
}

/** Offset just past the closing quote of the string literal opening at `start`. */
function literalEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') index += 2;
    else if (char === '"') return index + 1;
    else index++;
  }
  return text.length;
}

function collect(value: unknown, path: (string | number)[], out: ArgumentString[]): void {
  if (typeof value === 'string') out.push({ path: [...path], value });
  else if (Array.isArray(value)) value.forEach((item, index) => collect(item, [...path, index], out));
  else if (typeof value === 'object' && value !== null) for (const key of Object.keys(value)) collect((value as Record<string, unknown>)[key], [...path, key], out);
}

function rebuild(value: unknown, nextString: () => string): unknown {
  if (typeof value === 'string') return nextString();
  if (Array.isArray(value)) {
    const items = value.map((item) => rebuild(item, nextString));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (typeof value === 'object' && value !== null) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const before = (value as Record<string, unknown>)[key];
      const after = rebuild(before, nextString);
      if (after !== before) changed = true;
      // A key named __proto__ must stay a plain own property, as JSON.parse made it.
      Object.defineProperty(out, key, { value: after, enumerable: true, writable: true, configurable: true });
    }
    return changed ? out : value;
  }
  return value;
}
