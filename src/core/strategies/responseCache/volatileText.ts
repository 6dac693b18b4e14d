/**
 * Volatile values that make two otherwise identical requests differ: timestamps, UUIDs,
 * request ids, temporary paths, retry counters. semantic_cache's shadow lane replaces them
 * with placeholders to measure how often a normalised key would have hit. Measurement only.
 */

const RULES: readonly [RegExp, string][] = [
  // ISO 8601 and common log timestamps, with optional fraction and zone.
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<time>'],
  [/\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  [/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? \d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{4}\b/g, '<date>'],
  // Unix epoch seconds or milliseconds of this era.
  [/\b1[6-9]\d{8}(?:\d{3})?\b/g, '<epoch>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b(?:req|request|trace|span|msg|call|toolu|chatcmpl|run|resp)[_-][A-Za-z0-9]{8,}\b/g, '<request-id>'],
  [/\b(request[-_ ]?id|trace[-_ ]?id|correlation[-_ ]?id)(["']?\s*[:=]\s*["']?)[A-Za-z0-9._-]{6,}/gi, '$1$2<request-id>'],
  [/(?:\/tmp|\/var\/tmp|\/var\/folders|\/private\/var\/folders)\/[^\s"'`)]+/g, '<temp-path>'],
  [/[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp\\[^\s"'`)]+/g, '<temp-path>'],
  [/\b(retry|retries|attempt|try)(\s*[#:=]?\s*)\d+(\s*(?:of|\/)\s*\d+)?/gi, '$1$2<n>'],
  // Long hex runs: hashes, nonces and ids.
  [/\b[0-9a-f]{24,}\b/gi, '<hex>'],
];

export function normaliseVolatile(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}
