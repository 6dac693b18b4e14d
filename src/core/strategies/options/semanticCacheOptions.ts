/** The options of semantic_cache: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const SEMANTIC_CACHE_OPTIONS = z.object({
  scope: z.string().default('').describe('Partition of the cache (a workspace or user the host names); requests only hit answers of their own scope.'),
  ttlMs: z.number().int().min(0).default(3600000).describe('Answers older than this (ms) are not served.'),
  maxResponseChars: z.number().int().min(0).default(1000000).describe('Answers whose JSON is longer than this many characters are not stored.'),
  shadowNormalized: z.boolean().default(true).describe('Measure, after each answer and off the request path, whether a volatile-normalised key would have hit an earlier answer (never served); the session\'s totals appear in the next decision.'),
  shadowMaxScanChars: z.number().int().min(0).default(200000).describe('Characters of the canonical request the shadow lane normalises; the rest is hashed as it is.'),
  serveToolCalls: z.boolean().default(false).describe('Also serve a stored answer that calls a tool (an agent step). Off: such an answer is never served, the model decides the step again.'),
}).describe('An exact repeat of a request is answered from the cache without the model: text answers only (an answer that calls a tool only with serveToolCalls), and a repeat right after a served answer goes to the model. A normalised shadow key is measured, never served.');
