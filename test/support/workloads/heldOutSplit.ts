/**
 * The held-out discipline: every workload set built for issue 29 is cut into a half that tuning
 * may look at and a half that is only ever measured. The rule is fixed here and depends on the
 * workload's id alone, so adding a workload never moves another: the FNV-1a hash of the id, even
 * → tune, odd → measure.
 */

export type HeldOutHalf = 'tune' | 'measure';

/** 32-bit FNV-1a of a string's UTF-16 code units. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Which half a workload id falls in. */
export function heldOutHalf(id: string): HeldOutHalf {
  return fnv1a(id) % 2 === 0 ? 'tune' : 'measure';
}
