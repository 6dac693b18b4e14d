/**
 * Recognises, parses and reads the symbols of tool-output text, remembering the result per
 * text so a file read once is parsed once however many turns it stays in the conversation.
 */
import { GrammarError, GrammarLoader } from './grammarLoader';
import type { ReadHint } from './readCommands';
import { recognizeSource, type RecognizedSource } from './sourceRecognition';
import { extractSymbols, type SourceSymbols } from './symbols';

export type Analysis =
  | { readonly status: 'parsed'; readonly source: RecognizedSource; readonly symbols: SourceSymbols }
  /** Not code, or code in a language without a grammar: passes through untouched. */
  | { readonly status: 'not-source' | 'unknown-language' | 'empty' }
  /** Code that could not be parsed (or whose grammar could not be loaded); `reason` says why. */
  | { readonly status: 'parse-failed' | 'grammar-failed'; readonly source: RecognizedSource; readonly reason: string };

export interface AnalyzerOptions {
  /** A source with more of its rows than this inside parse errors counts as a parse failure. */
  readonly maxErrorShare: number;
}

export class SourceAnalyzer {
  private readonly memo = new Map<string, Analysis>();

  constructor(
    private readonly grammars: GrammarLoader,
    private readonly maxEntries = 512,
  ) {}

  async analyze(text: string, hint: ReadHint | undefined, options: AnalyzerOptions): Promise<Analysis> {
    const key = `${options.maxErrorShare}\u0000${hint?.path ?? ''}\u0000${hint?.firstLine ?? ''}\u0000${text}`;
    const known = this.memo.get(key);
    if (known) {
      this.memo.delete(key);
      this.memo.set(key, known);
      return known;
    }
    const analysis = await this.analyzeOnce(text, hint, options);
    this.memo.set(key, analysis);
    if (this.memo.size > this.maxEntries) this.memo.delete(this.memo.keys().next().value as string);
    return analysis;
  }

  private async analyzeOnce(text: string, hint: ReadHint | undefined, options: AnalyzerOptions): Promise<Analysis> {
    const recognition = recognizeSource(text, hint);
    if ('reason' in recognition) return { status: recognition.reason === 'empty' ? 'empty' : recognition.reason === 'unknown-language' ? 'unknown-language' : 'not-source' };
    const source = recognition.source;
    let grammar;
    try {
      grammar = await this.grammars.load(source.language);
    } catch (error) {
      const reason = error instanceof GrammarError ? error.message : `Herald: grammar ${source.language.grammarFile} failed (${String(error)})`;
      return { status: 'grammar-failed', source, reason };
    }
    const symbols = extractSymbols(grammar, source.code);
    if (!symbols) return { status: 'parse-failed', source, reason: `the ${source.language.id} parser gave no tree` };
    if (symbols.errorShare > options.maxErrorShare) {
      return { status: 'parse-failed', source, reason: `${Math.round(symbols.errorShare * 100)}% of the ${source.language.id} lines did not parse` };
    }
    return { status: 'parsed', source, symbols };
  }
}
