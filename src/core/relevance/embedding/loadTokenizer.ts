/**
 * Builds the tokenizer a model folder describes: a Hugging Face `tokenizer.json` with a
 * WordPiece or BPE model, or a BERT `vocab.txt` (WordPiece, uncased unless told otherwise).
 */
import * as fs from 'node:fs';
import { z } from 'zod';
import { createBytePairTokenizer } from './bytePairTokenizer';
import type { ModelFolder } from './modelFolder';
import type { TextTokenizer } from './textTokenizer';
import { createWordPieceTokenizer } from './wordPieceTokenizer';
import { describeError } from '../../errors';

const tokenizerJsonSchema = z.object({
  normalizer: z.looseObject({ type: z.string(), lowercase: z.boolean().optional() }).nullish(),
  pre_tokenizer: z.looseObject({ type: z.string(), add_prefix_space: z.boolean().optional() }).nullish(),
  model: z.discriminatedUnion('type', [
    z.looseObject({
      type: z.literal('WordPiece'),
      vocab: z.record(z.string(), z.number().int()),
      unk_token: z.string().optional(),
      continuing_subword_prefix: z.string().optional(),
      max_input_chars_per_word: z.number().int().optional(),
    }),
    z.looseObject({
      type: z.literal('BPE'),
      vocab: z.record(z.string(), z.number().int()),
      // Older files list merges as "a b" strings, newer ones as ["a", "b"] pairs.
      merges: z.array(z.union([z.string(), z.tuple([z.string(), z.string()])])),
      unk_token: z.string().nullish(),
    }),
  ]),
});

export function loadTokenizer(folder: Pick<ModelFolder, 'tokenizerFile' | 'tokenizerFormat'>): TextTokenizer {
  const text = fs.readFileSync(folder.tokenizerFile, 'utf8');
  if (folder.tokenizerFormat === 'vocab.txt') {
    const vocabulary = new Map<string, number>();
    text.split(/\r?\n/).forEach((token, id) => {
      if (token.length > 0 && !vocabulary.has(token)) vocabulary.set(token, id);
    });
    return createWordPieceTokenizer(vocabulary);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`Herald: ${folder.tokenizerFile} is not valid JSON (${describeError(error)})`);
  }
  const parsed = tokenizerJsonSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(`Herald: ${folder.tokenizerFile} is not a WordPiece or BPE tokenizer Herald can read: ${parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  }
  const { model, normalizer, pre_tokenizer: preTokenizer } = parsed.data;
  const vocabulary = new Map(Object.entries(model.vocab));
  if (model.type === 'WordPiece') {
    return createWordPieceTokenizer(vocabulary, {
      lowercase: normalizer?.lowercase ?? true,
      continuingPrefix: model.continuing_subword_prefix,
      maxCharactersPerWord: model.max_input_chars_per_word,
      unknownToken: model.unk_token,
    });
  }
  const merges = model.merges.map((merge) => (typeof merge === 'string' ? merge : merge.join(' ')));
  return createBytePairTokenizer(vocabulary, merges, { addPrefixSpace: preTokenizer?.add_prefix_space ?? false, unknownToken: model.unk_token ?? undefined });
}
