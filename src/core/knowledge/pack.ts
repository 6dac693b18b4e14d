/** Packs: small YAML files (`*.pack.yaml`) naming the pages for one kind of work. */
import { LineCounter, parseDocument, isMap, isScalar } from 'yaml';
import { z } from 'zod';

const phrase = z.string().trim().min(1);

/** A pack file as written. Pages are named by title or by page id. */
export const packSchema = z.strictObject({
  /** The pack's name, which the `pack` argument of get_context names. */
  name: phrase,
  /** What the pack is for, in a sentence. */
  description: z.string().default(''),
  /** Phrasings of the work the pack is for; a task close to one applies the pack. */
  good_for: z.array(phrase).default([]),
  /** Pages added in full when the pack applies. */
  always: z.array(phrase).default([]),
  /** Pages whose sections are kept past the closeness window when related at all. */
  when_relevant: z.array(phrase).default([]),
});

export type PackFile = z.output<typeof packSchema>;

/** Library settings in `library.yaml` at the library's root. */
export const settingsSchema = z.strictObject({
  /** The organization's name, for "Instructions from the … team". */
  organization: phrase.optional(),
  /** Instructions to every agent, placed at the top of each bundle. */
  instructions: z.string().optional(),
});

/** Parses a YAML file against a schema; problems carry 1-based lines. */
export function parseYamlFile<T>(source: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; problems: { line: number; message: string }[] } {
  const lineCounter = new LineCounter();
  const document = parseDocument(source, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0) return { ok: false, problems: document.errors.map((error) => ({ line: lineCounter.linePos(error.pos[0]).line, message: `YAML: ${error.message.split('\n')[0]}` })) };
  const parsed = schema.safeParse(document.toJS() ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => {
      const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
      let line = 1;
      if (key !== undefined && isMap(document.contents)) {
        for (const pair of document.contents.items) if (isScalar(pair.key) && pair.key.value === key && pair.key.range) line = lineCounter.linePos(pair.key.range[0]).line;
      }
      return { line, message: `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` };
    }),
  };
}
