/**
 * Page front matter: the YAML block between `---` lines at the top of a page, parsed with
 * `yaml` and validated with zod. Problems carry the file's line so an author can fix them.
 */
import { z } from 'zod';
import { parseSimpleYaml } from './simpleYaml';
import { parseYamlFile } from './yamlFile';

/** Types that are read whole unless the page says otherwise: they rarely work in pieces. */
export const READ_WHOLE_TYPES: ReadonlySet<string> = new Set(['rule', 'voice', 'style', 'template', 'process']);

const isoDate = z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date written YYYY-MM-DD'), z.date().transform((date) => date.toISOString().slice(0, 10))]);
const phrase = z.string().trim().min(1);

/** The front matter of a page. Unknown keys are an error, not a silent no-op. */
export const frontMatterSchema = z.strictObject({
  /** The page id agents pass to read_page; defaults to the file's path without `.md`. */
  id: z.string().regex(/^[a-z0-9][a-z0-9/_-]*$/, 'ids are lowercase letters, digits, -, _ and /').optional(),
  /** The page's title, as `[[links]]` name it. */
  title: phrase,
  /** What kind of page: rule, reference, template, voice, process, persona, battlecard, table, … */
  type: z.string().regex(/^[a-z][a-z-]*$/, 'a type is one lowercase word').default('reference'),
  /** Only published pages are searched or sent. Plain files default to published. */
  status: z.enum(['draft', 'published']).default('published'),
  /** The last day the page is valid (YYYY-MM-DD); after it the page is never sent. */
  expires: isoDate.optional(),
  /** Tags from the team's vocabulary. */
  tags: z.array(phrase.transform((tag) => tag.toLowerCase())).default([]),
  /** Always include this page in full while it fits. */
  pinned: z.boolean().default(false),
  /** Never send this page in pieces. Defaults to true for rule, voice, style, template and process pages. */
  read_whole: z.boolean().optional(),
  /** Phrasings of the work the page is for: "writing a cold email to a finance buyer". */
  good_for: z.array(phrase).default([]),
  /** Questions the page answers: "what is the refund window after a downgrade?" */
  questions: z.array(phrase).default([]),
  /** Other names the page is about (a competitor's product names, a persona's nickname). */
  names: z.array(phrase).default([]),
  /** A private note, only ever sent to its owner. */
  private: z.boolean().default(false),
  /** Who owns the page; required for private notes. */
  owner: phrase.optional(),
  /** Shown under the page title in every bundle: how to use the page. */
  usage_notes: phrase.optional(),
  /** A file attached to the page (path inside the library); agents fetch it with get_file. */
  file: phrase.optional(),
}).refine((value) => !value.private || value.owner !== undefined, { message: 'a private page needs an owner', path: ['owner'] });

/** Validated front matter. */
export type FrontMatter = z.output<typeof frontMatterSchema>;

/** A front matter problem with the 1-based line in the page's file. */
export interface FrontMatterProblem {
  readonly line: number;
  readonly message: string;
}

export type FrontMatterResult =
  | { readonly ok: true; readonly meta: FrontMatter; readonly body: string; readonly bodyLine: number }
  | { readonly ok: false; readonly problems: readonly FrontMatterProblem[] };

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Splits a page into front matter and body, and validates the front matter. */
export function parseFrontMatter(source: string): FrontMatterResult {
  const match = FENCE.exec(source);
  if (!match) return { ok: false, problems: [{ line: 1, message: 'the page has no front matter: start it with a --- line, the YAML, and another --- line' }] };
  const yamlText = match[1]!;
  const body = source.slice(match[0].length);
  const bodyLine = match[0].split('\n').length;
  // Most front matter is simple enough to read without the full parser (a large library has
  // thousands of pages); when it is not, or does not validate, `yaml` reads it and reports lines.
  const simple = parseSimpleYaml(yamlText);
  if (simple !== undefined) {
    const checked = frontMatterSchema.safeParse(simple);
    if (checked.success) return { ok: true, meta: checked.data, body, bodyLine };
  }
  // The YAML starts on the file's second line, after the opening ---.
  const parsed = parseYamlFile(yamlText, frontMatterSchema, 1);
  return parsed.ok ? { ok: true, meta: parsed.value, body, bodyLine } : { ok: false, problems: parsed.problems };
}
