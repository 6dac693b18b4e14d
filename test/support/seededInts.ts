/**
 * A seeded, repeatable stream of integers for generated test cases: `next(bound)` gives one in
 * [0, bound). A linear congruential generator (glibc's constants), so a failing case is the same
 * on every run and machine.
 */
export function seededInts(seed: number): (bound: number) => number {
  let state = seed;
  return (bound: number): number => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) & 0x7fffffff;
    return state % bound;
  };
}
