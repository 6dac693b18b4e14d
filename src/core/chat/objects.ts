/** Small helpers for reading loosely typed wire objects without `any`. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fields of `source` other than `known`, or undefined when there are none. */
export function restOf(source: JsonObject, known: readonly string[]): JsonObject | undefined {
  let rest: JsonObject | undefined;
  for (const key of Object.keys(source)) {
    if (known.includes(key)) continue;
    rest ??= {};
    rest[key] = source[key];
  }
  return rest;
}

/** `{ ...extra, ...fields }` with undefined fields left out; extra keys starting with `$` are ours. */
export function withExtra(fields: JsonObject, extra: JsonObject | undefined): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  if (extra) for (const [key, value] of Object.entries(extra)) if (!key.startsWith('$')) out[key] = value;
  return out;
}

/** A converter error: names the field that is wrong and what was expected. */
export class FormatError extends Error {
  constructor(readonly path: string, expected: string) {
    super(`Herald: invalid request at ${path}: expected ${expected}`);
    this.name = 'FormatError';
  }
}

export function expectString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new FormatError(path, 'a string');
  return value;
}

export function expectArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new FormatError(path, 'an array');
  return value;
}

export function expectObject(value: unknown, path: string): JsonObject {
  if (!isObject(value)) throw new FormatError(path, 'an object');
  return value;
}
