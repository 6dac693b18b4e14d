/** Input schemas of Herald's language-model tools, validated with zod (the JSON schemas live in package.json). */
import { z } from 'zod';
import { AGGRESSIVENESS } from '../settings/settingsSchema';

export const getContextToolInput = z.strictObject({
  task: z.string().trim().min(1),
  max_tokens: z.number().int().min(1000).max(30000).optional(),
  pack: z.string().trim().min(1).optional(),
  tags: z.array(z.string().trim().min(1)).optional(),
  folder: z.string().trim().min(1).optional(),
});

export const readPageToolInput = z.strictObject({ page_id: z.string().trim().min(1) });


export const filterToolInput = z.strictObject({
  question: z.string().trim().min(1),
  candidates: z.array(z.strictObject({ id: z.string().min(1), content: z.string() })).max(5000),
  aggressiveness: z.enum(AGGRESSIVENESS).optional(),
  max_tokens: z.number().int().positive().optional(),
  agent: z.string().min(1).max(200).optional(),
});

/** A zod failure as one line a model can act on. */
export function inputProblem(tool: string, error: z.ZodError): string {
  return `Herald: ${tool} input is invalid: ${error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}`;
}
