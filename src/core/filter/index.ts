export * from './filter';
export { parseFilterRequest, FilterInputError, BASE_THRESHOLDS, AGGRESSIVENESS, type FilterRequest, type Aggressiveness } from './request';
export { ScoringUnavailableError, judgeScores, parseVerdicts, JUDGE_SYSTEM, type JudgeOptions } from './judge';
export { scoreOnScale, contentTerms } from './lexicalScale';
export { scoreWithModel, SHIPPED_MODEL_SCALE, type ModelScale } from './modelScale';
export { DEFAULT_INPUT_PRICES, inputPrice, costOf, type PriceTable } from './prices';
export { ScoreMemo } from './scoreMemo';
export * from './thresholds';
export { duplicateReason, fingerprint } from './duplicates';
