/**
 * The "Herald · …" entries for other providers' models as the last window listed them, kept in
 * a small file in the extension's global storage. VS Code restores the chat's chosen model at start-up from the
 * models its providers have listed by then; Herald learns other providers' models only once
 * `vscode.lm` answers (a moment after activation), so a first list without them made VS Code
 * fall back to its default model, and later requests went out without Herald. Listing the
 * remembered entries from the first answer keeps the choice; the next real listing replaces them.
 * Pure (no `vscode`): the provider reads and writes the state.
 */
import * as fs from 'node:fs';
import { z } from 'zod';
import type { TargetInformation } from '../../core/flow/forwardTarget';
import { writeFileAtomic } from '../../core/files';
import type { Logger } from '../../core/ports';
import { describeError } from '../../core/errors';

export const REMEMBERED_MODELS_FILE = 'language-models.json';
/** Entries kept: enough for every model a Copilot plan lists, bounded against a runaway provider. */
const MOST_REMEMBERED = 200;

const informationSchema = z.object({
  id: z.string().regex(/^lm:[^/]+\/.+$/),
  name: z.string(),
  family: z.string(),
  version: z.string(),
  detail: z.string().optional(),
  maxInputTokens: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive(),
  toolCalling: z.union([z.boolean(), z.number()]),
  imageInput: z.boolean(),
  billing: z.enum(['premium-requests', 'tokens', 'unknown']).optional(),
});

const stateSchema = z.object({ version: z.literal(1), models: z.array(informationSchema) });

/** What to keep: the listed entries' information (no model objects, nothing from a request). */
export function rememberModels(models: readonly TargetInformation[]): unknown {
  return { version: 1, models: models.slice(0, MOST_REMEMBERED).map(({ wireFormat: _wire, ...information }) => information) };
}

/** The remembered entries, or none when the state is missing, from another version or damaged. */
export function rememberedModels(state: unknown): TargetInformation[] {
  const parsed = stateSchema.safeParse(state);
  return parsed.success ? parsed.data.models.map((model) => ({ ...model })) : [];
}

/**
 * The remembered entries in a file: read once when asked (a missing or unreadable file is none),
 * written only when the list changed (VS Code announces model changes often, and each listing
 * would otherwise rewrite it).
 */
export function rememberedModelsFile(file: string, logger: Logger): { get(): unknown; set(value: unknown): void } {
  let written: string | undefined;
  return {
    get() {
      try {
        written = fs.readFileSync(file, 'utf8');
        return JSON.parse(written) as unknown;
      } catch {
        return undefined;
      }
    },
    set(value) {
      const text = JSON.stringify(value);
      if (text === written) return;
      try {
        writeFileAtomic(file, text);
        written = text;
      } catch (error) {
        logger.warn('models-unsaved', `Herald: the list of models could not be saved to ${file}: ${describeError(error)}`);
      }
    },
  };
}

/** The vendor and model id a remembered entry stands for (`lm:<vendor>/<id>`). */
export function modelSelectorOf(targetId: string): { vendor: string; id: string } | undefined {
  const match = /^lm:([^/]+)\/(.+)$/.exec(targetId);
  return match ? { vendor: match[1]!, id: match[2]! } : undefined;
}
