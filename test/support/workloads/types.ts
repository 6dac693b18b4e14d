/**
 * One-request workloads: a request of the kind that wastes the most in one turn (bulk pasted
 * under a question, a fresh tool result of a command), built from ../shared/data, with the key
 * facts a correct answer needs. The facts come from the data's own ground truth where it has one
 * (loghub templates and structured logs, the test reports' expected summaries, Cranfield and
 * CoSQA labels, the trajectories' submissions), never from what Herald makes of the request.
 */

/** Where the bulk sits and what kind of waste it is, for the per-category figures. */
export type WorkloadCategory = 'logs and data' | 'code search, diffs, multi-file' | 'RAG and tool-heavy';

export interface Workload {
  /** Stable id, used in the bench table and on the command line. */
  readonly id: string;
  readonly category: WorkloadCategory;
  /** What the request is, in a few words (the waste pattern). */
  readonly pattern: string;
  /** The question the user (or the agent's task) asks about the bulk. */
  readonly question: string;
  /** The request, as an OpenAI chat completions body. */
  readonly body: { readonly model: string; readonly messages: readonly unknown[]; readonly tools?: readonly unknown[] };
  /**
   * Strings a correct answer needs (names, numbers, ids, paths), each of which occurs verbatim in
   * the request as built. A fact is visible when the optimized request's text still contains it
   * outside any Herald marker.
   */
  readonly facts: readonly string[];
  /** Where the bulk comes from, and how the facts were derived from the data's ground truth. */
  readonly source: string;
  /** Set when a fact was planted in real data (a spike, a flipped test): what and where. */
  readonly planted?: string;
}
