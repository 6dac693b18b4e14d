import { createHash } from 'node:crypto';

/** A hex SHA-256 of a string: the content hash used for memo keys and pins. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * JSON text of a value with object keys sorted, so equal values hash equally. The sorted copy
 * is built without recursion, so it serializes anything plain `JSON.stringify` can (a
 * replacer function would overflow the stack on JSON a few thousand levels deep).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedCopy(value)) ?? 'undefined';
}

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** What JSON.stringify would serialize in place of a value (a date's toJSON string). */
function jsonForm(value: unknown, key: string): unknown {
  const toJSON = isContainer(value) ? (value as { toJSON?: unknown }).toJSON : undefined;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value;
}

/** A copy with every object's keys in sorted order; shared references stay shared (a cycle still fails in JSON.stringify). */
function sortedCopy(original: unknown): unknown {
  const value = jsonForm(original, '');
  if (!isContainer(value)) return value;
  const copies = new Map<Container, Container>();
  const copyOf = (source: Container): { copy: Container; fresh: boolean } => {
    const known = copies.get(source);
    if (known) return { copy: known, fresh: false };
    const copy: Container = Array.isArray(source) ? [] : {};
    copies.set(source, copy);
    return { copy, fresh: true };
  };
  const root = copyOf(value).copy;
  const stack: [Container, Container][] = [[value, root]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    const keys = Array.isArray(source) ? source.map((_, index) => String(index)) : Object.keys(source).sort();
    for (const key of keys) {
      const inner = jsonForm((source as Record<string, unknown>)[key], key);
      if (isContainer(inner)) {
        const { copy, fresh } = copyOf(inner);
        (target as Record<string, unknown>)[key] = copy;
        if (fresh) stack.push([inner, copy]);
      } else {
        (target as Record<string, unknown>)[key] = inner;
      }
    }
  }
  return root;
}
