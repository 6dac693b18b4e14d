/** What get_context returns: the Markdown bundle and the JSON that explains it. */
import type { JudgeMode } from './judge';
import type { Plan } from './plan';

/** Why a page is in the bundle. */
export type InclusionReason = 'rule' | 'pinned' | 'recipe' | 'use' | 'link' | 'folder' | 'search';

/** One searched section or row in the JSON result. */
export interface ContextSection {
  readonly id: string;
  readonly kind: 'section' | 'row';
  readonly heading: string;
  readonly reason: InclusionReason;
  /** Reciprocal-rank-fused score. */
  readonly score: number;
  /** Closeness to the best match, 0..1. */
  readonly closeness: number;
  /** Rank in each ranking it appeared in. */
  readonly ranks: Readonly<Record<string, number>>;
  readonly judge?: { readonly use: number; readonly different: number; readonly source: 'model' | 'memory' };
}

/** One page in the JSON result. */
export interface ContextPage {
  readonly page_id: string;
  readonly title: string;
  readonly type: string;
  readonly reason: InclusionReason;
  readonly extent: 'full' | 'excerpts';
  /** Tokens of the page's block in the bundle. */
  readonly tokens: number;
  readonly sections: readonly ContextSection[];
}

/** What get_context returns. */
export interface ContextResult {
  readonly markdown: string;
  /** Tokens of `markdown` (o200k). */
  readonly tokens: number;
  readonly maxTokens: number;
  readonly plan: Plan;
  readonly packs: readonly string[];
  /** Tags of the library's vocabulary found in the task. */
  readonly tags: readonly string[];
  readonly pages: readonly ContextPage[];
  /** Nothing came close enough: the agent is told to check with the user. */
  readonly nothingFound: boolean;
  /** The nearest pages when nothing was found. */
  readonly nearest: readonly { readonly page_id: string; readonly title: string }[];
  /** Rules alone came to more than the budget; they were all sent anyway. */
  readonly rulesOverBudget: boolean;
  /** What ranked the pages: `words`, or `words + meaning (<model>)` when a model ranked by meaning too. */
  readonly signals: string;
  /** What the judge did on this request. */
  readonly judge: { readonly mode: JudgeMode; readonly asked: number; readonly failed?: string; readonly wouldDrop: readonly string[] };
}
