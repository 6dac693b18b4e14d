/** Tree-sitter code understanding: grammars, source recognition, symbols, reference graph, outlines. */
export { GrammarError, GrammarLoader, RUNTIME_FILE, defaultAssetLocator, nodeModulesAssetLocator, type LoadedGrammar } from './grammarLoader';
export { LANGUAGES, grammarFiles, languageById, type LanguageId, type LanguageSpec } from './languages';
export { languageFromContent, languageFromPath } from './languageDetection';
export { extractMentions, mergeMentions, type LineRange, type Mentions } from './mentions';
export { outlineSource, type ElidedBody, type Outline, type OutlineOptions } from './outliner';
export { readHintFromCommand, readHintFromToolCall, type ReadHint } from './readCommands';
export { ReferenceGraph, normalizePath, samePath, type GraphSource, type WorkingSet, type WorkingSetOptions } from './referenceGraph';
export { SourceAnalyzer, type Analysis, type AnalyzerOptions } from './sourceAnalyzer';
export { recognizeSource, type RecognizedSource } from './sourceRecognition';
export { extractSymbols, type CodeUnit, type SourceSymbols, type UnitKind } from './symbols';
