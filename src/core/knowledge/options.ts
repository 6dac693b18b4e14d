/**
 * Tuning of get_context, with every default in one place. Unknown options are an error.
 */
import { z } from 'zod';

export const knowledgeOptionsSchema = z.strictObject({
  /** Share of the budget whole pages (pinned, pack and read-whole "use" pages together) may take. */
  wholePageShare: z.number().min(0).max(1).default(0.75),
  /** A section is kept when its closeness to the best match of its query is at least this. */
  closenessWindow: z.number().min(0).max(1).default(0.5),
  /** Reciprocal rank fusion constant: higher flattens the difference between ranks. */
  fusionConstant: z.number().positive().default(60),
  /** How much of a pack's phrasing a task must cover for the pack to apply without a judge. */
  packMatch: z.number().min(0).max(1).default(0.6),
  /** How much of a page's `good_for` phrasing a task must cover for the page to come as "use". */
  useMatch: z.number().min(0).max(1).default(0.6),
  /**
   * With an embedder: a phrasing (pack or page `good_for`) this close in meaning to the task
   * matches, whatever its words. Default: 0.45 with Herald's shipped retrieval model (when
   * `shippedModelMeaning` lets it rank the library at all), 0.8 with any other model
   * (MiniLM-like sentence embedders).
   */
  meaningMatch: z.number().min(0).max(1).optional(),
  /**
   * Whether Herald's shipped retrieval model (herald-retrieval) may rank the library by meaning.
   * Off by default: on held-out tasks it never beat words alone at any threshold (its cosines
   * for a task the library does not cover reach those of a reworded one: "write a haiku about
   * volcanoes" scores 0.63 against "writing to a finance buyer"), so the library ranks by words
   * and the model is not asked. A user's own model (`herald.embedding.modelFolder`) is always used.
   */
  shippedModelMeaning: z.boolean().default(false),
  /** How many pages at most come in as "use" pages. */
  usePages: z.number().int().min(0).default(4),
  /** How much of a folder's phrasing a task must cover to lift the folder's pages into search. */
  folderMatch: z.number().min(0).max(1).default(0.75),
  /** Folders at or above this coherence lift their siblings. */
  folderCoherence: z.number().min(0).max(1).default(0.45),
  /** How many of the best hits the search widens from (links and folder siblings). */
  widenFrom: z.number().int().min(0).default(5),
  /** Closeness a page reached through a link inherits from the page that links it. */
  linkWeight: z.number().min(0).max(1).default(0.8),
  /** Closeness a sibling in a coherent folder inherits from the hit beside it. */
  folderWeight: z.number().min(0).max(1).default(0.7),
  /** A question in `questions` matches when the task covers this share of its words. */
  questionMatch: z.number().min(0).max(1).default(0.6),
  /** Milliseconds the plan model may take before the rules plan stands in. */
  planTimeoutMs: z.number().int().positive().default(4000),
  /** Milliseconds the judge may take before the heuristics stand in. */
  judgeTimeoutMs: z.number().int().positive().default(6000),
  /** How many candidates at most go to the judge in its one call. */
  judgeCandidates: z.number().int().positive().default(40),
});

/** Options of get_context, every field with its default. */
export type KnowledgeOptions = z.output<typeof knowledgeOptionsSchema>;

/** Options as a caller gives them; missing fields take their defaults. */
export type KnowledgeOptionsInput = z.input<typeof knowledgeOptionsSchema>;

export function resolveOptions(input: KnowledgeOptionsInput | undefined): KnowledgeOptions {
  const parsed = knowledgeOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) throw new Error(`Herald: invalid knowledge option: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '')} ${issue.message}`).join('; ')}`);
  return parsed.data;
}
