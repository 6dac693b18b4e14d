/** Packs: small YAML files (`*.pack.yaml`) naming the pages for one kind of work; and `library.yaml` settings. */
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
