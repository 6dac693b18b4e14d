/**
 * Recognises, parses and reads the symbols of tool-output text, remembering the result per
 * text so a file read once is parsed once however many turns it stays in the conversation.
 */
import { GrammarError, GrammarLoader, type LoadedGrammar } from './grammarLoader';
import type { BodyStyle } from './languages';
import type { ReadHint } from './readCommands';
import { recognizeSource, type RecognizedSource } from './sourceRecognition';
import { extractSymbols, relocateSymbols, type SourceSymbols } from './symbols';

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
  /**
   * Analyses by text, then by options and hint: the text itself is the outer key (a key made by
   * joining the hint to the text was a new copy of every output to hash). Least recently used
   * texts go first once more than `maxEntries` analyses are kept.
   */
  private readonly memo = new Map<string, Map<string, Analysis>>();
  private entries = 0;

  constructor(
    private readonly grammars: GrammarLoader,
    private readonly maxEntries = 512,
  ) {}

  async analyze(text: string, hint: ReadHint | undefined, options: AnalyzerOptions): Promise<Analysis> {
    const key = `${options.maxErrorShare}\u0000${hint?.path ?? ''}\u0000${hint?.firstLine ?? ''}`;
    const byHint = this.memo.get(text);
    const known = byHint?.get(key);
    if (byHint && known) {
      this.memo.delete(text);
      this.memo.set(text, byHint);
      return known;
    }
    const analysis = await this.analyzeOnce(text, hint, options);
    const entry = this.memo.get(text) ?? new Map<string, Analysis>();
    this.memo.delete(text);
    this.memo.set(text, entry);
    if (!entry.has(key)) this.entries++;
    entry.set(key, analysis);
    while (this.entries > this.maxEntries && this.memo.size > 1) {
      const [oldest, dropped] = this.memo.entries().next().value as [string, Map<string, Analysis>];
      this.memo.delete(oldest);
      this.entries -= dropped.size;
    }
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
    let symbols = parseSlice(grammar, source.code, 0);
    if (symbols && symbols.errorShare > options.maxErrorShare) {
      // A read cut mid-file (an output tail, a range) may start inside a string or a statement:
      // parse from the first line that starts a definition and keep what precedes it as it is.
      const start = firstDefinitionRow(source.code, source.language.bodyStyle);
      if (start > 0) symbols = parseSlice(grammar, source.code, start) ?? symbols;
    }
    if (!symbols) return { status: 'parse-failed', source, reason: `the ${source.language.id} parser gave no tree` };
    if (symbols.errorShare > options.maxErrorShare) {
      return { status: 'parse-failed', source, reason: `${Math.round(symbols.errorShare * 100)}% of the ${source.language.id} lines did not parse` };
    }
    return { status: 'parsed', source, symbols };
  }
}

/**
 * Synthetic `if True:` lines, one per indentation level the code uses below its first line's
 * indentation, so code cut from inside a function parses as it stands in its file.
 */
export function openingBlocks(code: string): string {
  const lines = code.split('\n').filter((line) => line.trim().length > 0 && !line.trimStart().startsWith('#'));
  const first = lines[0];
  if (!first) return '';
  const firstIndent = /^[ \t]*/.exec(first)![0];
  if (firstIndent.length === 0) return '';
  const levels = new Set<string>(['']);
  for (const line of lines) {
    const indent = /^[ \t]*/.exec(line)![0];
    if (indent.length < firstIndent.length && firstIndent.startsWith(indent)) levels.add(indent);
  }
  return [...levels].sort((a, b) => a.length - b.length).map((indent) => `${indent}if True:\n`).join('');
}

/** Symbols of the code from row `start` on, in the whole code's rows. */
function parseSlice(grammar: LoadedGrammar, code: string, start: number): SourceSymbols | undefined {
  const lines = code.split('\n');
  const slice = start === 0 ? code : lines.slice(start).join('\n');
  // A range read that starts inside a block (indented Python) parses once the blocks around it are opened.
  const opening = grammar.language.bodyStyle === 'indented' ? openingBlocks(slice) : '';
  const openingRows = opening.length === 0 ? 0 : opening.split('\n').length - 1;
  const parsed = extractSymbols(grammar, opening + slice);
  return parsed && relocateSymbols(parsed, openingRows, start, lines.length);
}

/** The first row that starts a definition (for indented code) or a top-level statement (for the rest). */
function firstDefinitionRow(code: string, style: BodyStyle): number {
  const lines = code.split('\n');
  const pattern = style === 'indented' ? /^\s*(async\s+def|def|class)\s|^\s*@\w/ : /^[A-Za-z_#@<\/]/;
  for (let row = 1; row < lines.length; row++) if (pattern.test(lines[row]!)) return row;
  return 0;
}
