/** What the embedder needs from a model's tokenizer: ids for one text, special tokens included. */
export interface TextTokenizer {
  /** `wordpiece` or `bpe`, for reports. */
  readonly kind: 'wordpiece' | 'bpe';
  /** Token ids of one text with the model's special tokens, at most `maxTokens` long. */
  encode(text: string, maxTokens: number): number[];
  /** The id that pads a batch. */
  readonly padId: number;
}
