/** YAML files read against a zod schema, with problems on the lines an author can fix. */
import { LineCounter, parseDocument, isMap, isScalar } from 'yaml';
import type { z } from 'zod';

/**
 * Parses YAML against a schema; problems carry 1-based lines, shifted by `lineOffset` when
 * the YAML starts further down a file (front matter starts on a page's second line).
 */
export function parseYamlFile<T>(source: string, schema: z.ZodType<T>, lineOffset = 0): { ok: true; value: T } | { ok: false; problems: { line: number; message: string }[] } {
  const lineCounter = new LineCounter();
  const lineOf = (offset: number): number => lineCounter.linePos(offset).line + lineOffset;
  const document = parseDocument(source, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0) return { ok: false, problems: document.errors.map((error) => ({ line: lineOf(error.pos[0]), message: `YAML: ${error.message.split('\n')[0]}` })) };
  const parsed = schema.safeParse(document.toJS() ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => {
      const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
      // The key's own line, or the first line when the problem is about a missing key.
      let line = 1 + lineOffset;
      if (key !== undefined && isMap(document.contents)) {
        for (const pair of document.contents.items) if (isScalar(pair.key) && pair.key.value === key && pair.key.range) line = lineOf(pair.key.range[0]);
      }
      return { line, message: `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` };
    }),
  };
}
