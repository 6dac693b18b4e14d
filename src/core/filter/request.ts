/** The filter API's input, validated with zod: a bad field gets an error naming it. */
import { z } from 'zod';

export const CONTENT_FORMATS = ['auto', 'html', 'json', 'test-output', 'log', 'file-listing', 'diff', 'stack-trace', 'grep', 'text'] as const;

export const AGGRESSIVENESS = ['conservative', 'balanced', 'aggressive'] as const;
export type Aggressiveness = (typeof AGGRESSIVENESS)[number];

/** Base thresholds on the 0–3 scale. */
export const BASE_THRESHOLDS: Readonly<Record<Aggressiveness, number>> = { conservative: 0.9, balanced: 1.4, aggressive: 1.9 };

const candidateSchema = z.strictObject({
  /** The caller's id for the item; returned as is. */
  id: z.string().min(1, 'must not be empty'),
  /** The item's text. */
  content: z.string(),
  /** Its format, when the caller knows; detected otherwise. */
  format: z.enum(CONTENT_FORMATS).optional(),
});

export const filterRequestSchema = z.strictObject({
  /** What the context is for. */
  question: z.string().trim().min(1, 'must not be empty'),
  candidates: z.array(candidateSchema).max(5000, 'at most 5000 candidates per request'),
  aggressiveness: z.enum(AGGRESSIVENESS).default('balanced'),
  /** Token budget for the kept items, counted after cleanup. */
  max_tokens: z.number().int().positive().optional(),
  /** Names the call site; each agent learns its own threshold. */
  agent: z.string().min(1).max(200).optional(),
  /** The model the context is for: prices the report. */
  model: z.string().min(1).optional(),
  /** `auto`: the judge when one is configured, else local scoring (words, and meaning when a retrieval model is given). `lexical`: never the judge. `judge`: the judge or fail. */
  scoring: z.enum(['auto', 'lexical', 'judge']).default('auto'),
  /** Names a conversation: items already scored in it are reused, not re-scored. */
  conversation: z.string().min(1).max(200).optional(),
}).superRefine((value, context) => {
  const seen = new Set<string>();
  value.candidates.forEach((candidate, index) => {
    if (seen.has(candidate.id)) context.addIssue({ code: 'custom', path: ['candidates', index, 'id'], message: `duplicate id "${candidate.id}"` });
    seen.add(candidate.id);
  });
});

export type FilterRequest = z.infer<typeof filterRequestSchema>;
export type FilterCandidate = FilterRequest['candidates'][number];

/** A request that does not validate; `field` is the path of the first bad field. */
export class FilterInputError extends Error {
  readonly code = 'invalid_request';
  readonly status = 400;
  constructor(readonly field: string, detail: string) {
    super(`Herald filter: ${field || 'request'}: ${detail}`);
    this.name = 'FilterInputError';
  }
}

export function parseFilterRequest(input: unknown): FilterRequest {
  const parsed = filterRequestSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '');
  const detail = issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((key) => `"${key}"`).join(', ')}` : issue.message;
  throw new FilterInputError(field, detail);
}
