/**
 * The held-out workload set of issue 29: one-request workloads of the kinds the issue lists
 * (mixed incident pastes, pasted test runs of several runners, metrics documents, knowledge-base
 * chunks with paths and similarities, ripgrep hits, several whole files read in one turn), each cut
 * into the tune or the measure half by {@link heldOutHalf}. Tuning looks at the tune half only;
 * the bench prints the measure half's totals and, only when asked, its rows.
 */
import { heldOutCodeWorkloads } from './heldOutCode';
import { heldOutDataWorkloads } from './heldOutData';
import { incidentWorkloads } from './heldOutIncident';
import { heldOutRetrievalWorkloads } from './heldOutRetrieval';
import type { Workload } from './types';

export { heldOutHalf, type HeldOutHalf } from './heldOutSplit';

export function buildHeldOutWorkloads(): Workload[] {
  return [...incidentWorkloads(), ...heldOutDataWorkloads(), ...heldOutRetrievalWorkloads(), ...heldOutCodeWorkloads()];
}
