/** Options several commands share, declared once (see optionSpec.ts). */
import type { OptionDeclaration } from './optionSpec';

export const STASH_OPTION: OptionDeclaration = { value: 'DIR', help: 'the stash folder: originals, the memo and the pins (default $HERALD_STASH_DIR or ~/.herald/stash)' };
export const FORMAT_OPTION: OptionDeclaration = { value: 'openai|anthropic|responses', help: 'the request format (detected when not given)' };
export const ENABLE_OPTION: OptionDeclaration = { value: 'ids', help: 'switch these strategies on (comma-separated ids)' };
export const DISABLE_OPTION: OptionDeclaration = { value: 'ids', help: 'switch these strategies off (comma-separated ids)' };
export const TIME_LIMIT_OPTION: OptionDeclaration = { value: 'MS', help: "each strategy's time limit in ms (a strategy over it is skipped)" };
export const REWRITE_SHARE_OPTION: OptionDeclaration = { value: '0-1', help: 'the least share of a cached history output a rewrite must remove' };
export const FIRST_MARKER_ROUND_OPTION: OptionDeclaration = { help: "price a session's first marker as the retrieve round it may bring, at the rate the client's model has asked so far (the default; cautious until that is known)" };
export const NO_FIRST_MARKER_ROUND_OPTION: OptionDeclaration = { help: 'price every marker at the usual small chance of a retrieve round, from the first request (for a model known to rarely ask)' };
export const EMBEDDING_MODEL_OPTION: OptionDeclaration = { value: 'DIR', help: 'an embedding model folder (default: the retrieval model Herald ships)' };
export const JUDGE_URL_OPTION: OptionDeclaration = { value: 'URL', help: "a judge model's base URL (with --judge-model; key from $HERALD_JUDGE_API_KEY)" };
export const JUDGE_MODEL_OPTION: OptionDeclaration = { value: 'M', help: "the judge model's id" };
export const JUDGE_KIND_OPTION: OptionDeclaration = { value: 'openai|anthropic', help: "the judge endpoint's API (default openai)" };
export const LEXICAL_OPTION: OptionDeclaration = { help: 'rank by words alone (no retrieval model)' };
