import * as crypto from 'node:crypto';

/**
 * Node's one-shot `crypto.hash` (20.12 and later): about a third of the cost of a Hash object
 * for the short texts hashed most (chain links, keys). An older Node (an older VS Code's
 * Electron) has none, and gets the Hash object.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** A hex SHA-256 of a string: the content hash used for memo keys and pins. */
export function sha256(text: string): string {
  return oneShot !== undefined ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * JSON text of a value with object keys sorted, so equal values hash equally: exactly what
 * `JSON.stringify` writes for a copy of the value whose objects have their keys in sorted
 * order (`toJSON` honoured, `undefined` and functions left out of objects and written as
 * `null` in arrays, a cycle a TypeError). Written in one pass with an explicit stack: no copy
 * of the value is built, and JSON thousands of levels deep does not overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  const top = jsonForm(value, '');
  if (!isContainer(top)) return JSON.stringify(top) ?? 'undefined';
  // Recursion is the quick way for the depths real requests have; past that, the explicit stack.
  try {
    return writeNested(top, 0, new Set());
  } catch (error) {
    if (error !== TOO_DEEP) throw error;
  }
  return writeWithStack(top);
}

/** Thrown by {@link writeNested} when the value is deeper than recursion should go. */
const TOO_DEEP = Symbol('too deep');
const MAX_RECURSION = 500;

/** The canonical JSON of a container (one `jsonForm` already applied), written recursively. */
function writeNested(current: Container, depth: number, open: Set<Container>): string {
  if (depth > MAX_RECURSION) throw TOO_DEEP;
  if (open.has(current)) throw new TypeError('Converting circular structure to JSON');
  open.add(current);
  let out: string;
  if (Array.isArray(current)) {
    out = '[';
    for (let index = 0; index < current.length; index++) {
      if (index > 0) out += ',';
      const item = jsonForm(current[index], String(index));
      out += !isWritable(item) ? 'null' : isContainer(item) ? writeNested(item, depth + 1, open) : (JSON.stringify(item) ?? 'null');
    }
    out += ']';
  } else {
    out = '{';
    let first = true;
    for (const key of sortedKeys(current)) {
      const item = jsonForm(current[key], key);
      if (!isWritable(item)) continue;
      out += `${first ? '' : ','}${JSON.stringify(key)}:${isContainer(item) ? writeNested(item, depth + 1, open) : (JSON.stringify(item) ?? 'null')}`;
      first = false;
    }
    out += '}';
  }
  open.delete(current);
  return out;
}

/** The canonical JSON of a container, with an explicit stack (any depth). */
function writeWithStack(top: Container): string {
  const out: string[] = [];
  /** A value still to write, or text to write as it is; `close` ends a container (and frees it for the cycle check). */
  type Task = { readonly text: string } | { readonly value: unknown } | { readonly close: Container; readonly text: string };
  const stack: Task[] = [{ value: top }];
  const open = new Set<Container>();
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('close' in task) {
      open.delete(task.close);
      out.push(task.text);
      continue;
    }
    if ('text' in task) {
      out.push(task.text);
      continue;
    }
    const current = task.value;
    if (!isContainer(current)) {
      out.push(JSON.stringify(current) ?? 'null');
      continue;
    }
    if (open.has(current)) throw new TypeError('Converting circular structure to JSON');
    open.add(current);
    if (Array.isArray(current)) {
      if (current.length === 0) {
        open.delete(current);
        out.push('[]');
        continue;
      }
      out.push('[');
      stack.push({ close: current, text: ']' });
      for (let index = current.length - 1; index >= 0; index--) {
        const item = jsonForm(current[index], String(index));
        // In an array, what JSON leaves out of an object is written as null.
        stack.push(isWritable(item) ? { value: item } : { text: 'null' });
        if (index > 0) stack.push({ text: ',' });
      }
      continue;
    }
    const entries: [string, unknown][] = [];
    for (const key of sortedKeys(current)) {
      const item = jsonForm(current[key], key);
      if (isWritable(item)) entries.push([key, item]);
    }
    if (entries.length === 0) {
      open.delete(current);
      out.push('{}');
      continue;
    }
    out.push('{');
    stack.push({ close: current, text: '}' });
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index]!;
      stack.push({ value: item });
      stack.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` });
    }
  }
  return out.join('');
}

type Container = Record<string, unknown> | unknown[];

/** An array-index key (`0`, `17`): objects list these first, in numeric order, whatever order they were added in. */
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;

/**
 * The keys in the order a copy built with sorted keys enumerates them: index keys first in
 * numeric order (as any object lists them, so `Object.keys` has them in front already), the
 * others in sorted order.
 */
function sortedKeys(object: Record<string, unknown>): string[] {
  const keys = Object.keys(object);
  let indexes = 0;
  while (indexes < keys.length && INDEX_KEY.test(keys[indexes]!) && Number(keys[indexes]) < 4_294_967_295) indexes++;
  if (indexes === 0) return keys.sort();
  return [...keys.slice(0, indexes), ...keys.slice(indexes).sort()];
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** What JSON writes at all: not undefined, a function or a symbol. */
function isWritable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

/** What JSON.stringify would serialize in place of a value (a date's toJSON string). */
function jsonForm(value: unknown, key: string): unknown {
  const toJSON = isContainer(value) ? (value as { toJSON?: unknown }).toJSON : undefined;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value;
}

/** SHA-256 and length of each object's JSON, remembered per object (the chat model's objects are never mutated). */
const digests = new WeakMap<object, { readonly digest: string; readonly length: number }>();

function digestEntry(value: object): { readonly digest: string; readonly length: number } {
  const known = digests.get(value);
  if (known !== undefined) return known;
  const json = JSON.stringify(value);
  const entry = { digest: sha256(json), length: json.length };
  digests.set(value, entry);
  return entry;
}

/**
 * A hex SHA-256 of a message's (or tool's, or any plain object's) JSON text, worked out once
 * per object. JSON text, not canonical JSON: what changes the bytes a provider sees changes the
 * digest, key order included.
 */
export function digestOf(value: object): string {
  return digestEntry(value).digest;
}

/** The digest of an object when it has been worked out already (no hashing here). */
export function knownDigestOf(value: object): string | undefined {
  return digests.get(value)?.digest;
}

/**
 * Gives `to` the digest (and JSON length) worked out for `from`, when there is one: for a caller
 * that knows the two write the same JSON text (see digestCarry.ts). True when it did.
 */
export function carryDigest(from: object, to: object): boolean {
  const known = digests.get(from);
  if (known === undefined) return false;
  digests.set(to, known);
  return true;
}

/** The length of an object's JSON text, remembered with its digest. */
export function jsonLengthOf(value: object): number {
  return digestEntry(value).length;
}

/** A hex SHA-256 of a sequence of objects (messages, tools), from their digests. */
export function sequenceDigest(values: readonly object[]): string {
  // Remembered per array with the items it held (compared pointer by pointer): the tools array
  // is digested by several strategies a turn.
  const known = sequences.get(values);
  if (known && sameItems(known.items, values)) return known.digest;
  // One string hashed at once: the same bytes as an update per digest, without a call per digest.
  let text = String(values.length);
  for (const value of values) text += digestOf(value);
  const digest = sha256(text);
  sequences.set(values, { items: values.slice(), digest });
  return digest;
}

const sequences = new WeakMap<readonly object[], { readonly items: readonly object[]; readonly digest: string }>();

function sameItems(before: readonly object[], now: readonly object[]): boolean {
  if (before.length !== now.length) return false;
  for (let index = 0; index < now.length; index++) if (before[index] !== now[index]) return false;
  return true;
}
