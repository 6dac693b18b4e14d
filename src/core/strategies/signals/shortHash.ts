import { canonicalJson, sha256 } from '../../pipeline/hash';

/** A 64-bit content hash (16 hex digits): enough to tell regions apart, too short to carry content. */
export function shortHash(value: unknown): string {
  return sha256(typeof value === 'string' ? value : canonicalJson(value)).slice(0, 16);
}
