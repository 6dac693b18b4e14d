/**
 * The one-request workload set (test/bench/workloads.bench.ts): every workload built from
 * ../shared/data, in a fixed order. Reading the data happens here, so callers check
 * `hasSharedData()` first.
 */
import { codeWorkloads } from './code';
import { dataWorkloads } from './data';
import { logWorkloads } from './logs';
import { ragWorkloads } from './rag';
import { testRunWorkloads } from './testRuns';
import type { Workload } from './types';

export type { Workload, WorkloadCategory } from './types';

export function buildWorkloads(): Workload[] {
  return [...logWorkloads(), ...testRunWorkloads(), ...dataWorkloads(), ...codeWorkloads(), ...ragWorkloads()];
}

export { containsFact } from './facts';
export { buildHeldOutWorkloads, heldOutHalf, type HeldOutHalf } from './heldOut';
export { heldOutTwoWorkloads } from './heldOutTwo';
export { HELD_OUT_THREE_PAIRS, heldOutThreeHalf, heldOutThreeWorkloads, type HeldOutThreePair } from './heldOutThree';
