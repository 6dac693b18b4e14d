/**
 * @herald and attached references (files, selections): the filter decides which of them the
 * model gets for the question, and the user is told in one short note what was left out and
 * why. Pure (no `vscode`): the participant reads the references' text and passes it in.
 */
import { filter, type FilterDependencies, type FilterResult } from '../../core/filter/filter';
import type { Aggressiveness } from '../../core/filter/request';

/** One attachment, read to text. */
export interface AttachedReference {
  /** Unique among the request's references. */
  readonly id: string;
  /** What the user recognises it by: a workspace path, with lines for a selection. */
  readonly label: string;
  readonly content: string;
}

export interface FilteredReferences {
  /** The references the model gets, cleaned by the filter, in the order attached. */
  readonly kept: readonly AttachedReference[];
  /** What was left out and why, for the user; undefined when everything was kept. */
  readonly note: string | undefined;
  /** The filter's full result (for the quality check after the answer). */
  readonly result: FilterResult;
}

const REASONS: Record<string, string> = { low_relevance: 'not relevant enough', duplicate: 'repeats another attachment', over_budget: 'over the token budget' };

export async function filterReferences(
  question: string,
  references: readonly AttachedReference[],
  settings: { readonly aggressiveness: Aggressiveness; readonly agent: string; readonly model?: string },
  dependencies: FilterDependencies,
): Promise<FilteredReferences> {
  const result = await filter(
    { question, candidates: references.map((reference) => ({ id: reference.id, content: reference.content })), aggressiveness: settings.aggressiveness, agent: settings.agent, ...(settings.model ? { model: settings.model } : {}) },
    dependencies,
  );
  const byId = new Map(references.map((reference) => [reference.id, reference]));
  const kept = result.kept.map((item) => ({ ...byId.get(item.id)!, content: item.content }));
  const dropped = result.items.filter((item) => item.decision !== 'kept');
  const note =
    dropped.length === 0
      ? undefined
      : `Herald left out ${dropped.length} of ${references.length} attachments: ${dropped
          .map((item) => `\`${byId.get(item.id)?.label ?? item.id}\` (${REASONS[item.decision] ?? item.decision}${item.decision === 'duplicate' && item.duplicateOf ? ` \`${byId.get(item.duplicateOf)?.label ?? item.duplicateOf}\`` : ''}, relevance ${item.score.toFixed(1)} of 3)`)
          .join('; ')}.`;
  return { kept, note, result };
}
