/**
 * Loads the tree-sitter runtime and grammars lazily, once each. The runtime is
 * `web-tree-sitter` (0.25, grammar ABI 14–15, which every grammar in `@vscode/tree-sitter-wasm`
 * uses); its `tree-sitter.wasm` and the grammar files are found through an {@link AssetLocator}.
 * A missing or damaged file becomes a clear error for the decision, never a crash.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, Parser, Query } from 'web-tree-sitter';
import type { AssetLocator } from '../ports';
import type { LanguageId, LanguageSpec } from './languages';
import { describeError } from '../errors';

/** The runtime file: `web-tree-sitter`'s own build (not the one `@vscode/tree-sitter-wasm` ships). */
export const RUNTIME_FILE = 'tree-sitter.wasm';

/** A grammar ready to parse with, and its compiled queries. */
export interface LoadedGrammar {
  readonly language: LanguageSpec;
  readonly parser: Parser;
  /** The definition patterns of the language's query (read as whole matches). */
  readonly definitions: Query;
  /** The reference patterns (read as single captures, which is much cheaper). */
  readonly references: Query;
  /** Every capture name the language's query uses. */
  readonly captureNames: readonly string[];
}

/** Why a grammar could not be used; the message is meant for the decision as it is. */
export class GrammarError extends Error {
  override readonly name = 'GrammarError';
}

let runtimeReady: Promise<void> | undefined;
/** Compiled grammars by file path, shared by every loader in the process (compiling is the slow part). */
const compiledGrammars = new Map<string, Promise<Language>>();
let runtimePathUsed: string | undefined;
/**
 * Compiled queries by grammar file and query text, shared like the grammars: compiling a query
 * is tree-sitter's slowest step (about 65 ms for the built-in languages), and every pipeline
 * makes a loader of its own (the gateway one per client). A query is only read from after it is
 * compiled, so one object serves every loader.
 */
const compiledQueries = new Map<string, Query>();

/** The Emscripten module is process-wide, so the runtime is initialised once for every loader. */
function initRuntime(runtimePath: string): Promise<void> {
  if (runtimeReady && runtimePathUsed === runtimePath) return runtimeReady;
  if (runtimeReady) return runtimeReady;
  runtimePathUsed = runtimePath;
  runtimeReady = (async () => {
    const bytes = await readAsset(runtimePath, 'tree-sitter runtime');
    await Parser.init({ wasmBinary: bytes });
  })();
  // A failed start may be retried with another locator later.
  runtimeReady.catch(() => {
    runtimeReady = undefined;
  });
  return runtimeReady;
}

export class GrammarLoader {
  private readonly loaded = new Map<LanguageId, Promise<LoadedGrammar>>();

  constructor(private readonly assets: AssetLocator = defaultAssetLocator()) {}

  /** The grammar for a language, loaded on first use; rejects with a {@link GrammarError}. */
  load(language: LanguageSpec): Promise<LoadedGrammar> {
    let pending = this.loaded.get(language.id);
    if (!pending) {
      pending = this.loadOnce(language);
      // A failure is remembered too: a file that is missing now is missing on the next request.
      this.loaded.set(language.id, pending);
    }
    return pending;
  }

  private async loadOnce(spec: LanguageSpec): Promise<LoadedGrammar> {
    // Once the runtime is started (or starting) its file is not looked for again: finding it
    // tests the disk, and initRuntime would answer with the runtime it has whatever the path.
    await (runtimeReady ?? initRuntime(this.assets.wasmPath(RUNTIME_FILE)));
    const grammarPath = this.assets.wasmPath(spec.grammarFile);
    let compiled = compiledGrammars.get(grammarPath);
    if (!compiled) {
      compiled = compileGrammar(spec.grammarFile, grammarPath);
      compiledGrammars.set(grammarPath, compiled);
      // A failure is not shared: the file may be put in place before another loader asks.
      compiled.catch(() => compiledGrammars.delete(grammarPath));
    }
    const language = await compiled;
    // Each pattern sits on a line of its own, so the two halves split by line.
    const patterns = spec.query.split('\n');
    const compile = (lines: readonly string[]): Query => {
      const source = lines.join('\n');
      const key = `${grammarPath}\u0000${source}`;
      const known = compiledQueries.get(key);
      if (known) return known;
      try {
        const query = new Query(language, source);
        compiledQueries.set(key, query);
        return query;
      } catch (error) {
        throw new GrammarError(`Herald: the ${spec.id} query does not compile against ${spec.grammarFile} (${describeError(error)})`);
      }
    };
    const definitions = compile(patterns.filter((line) => !line.includes('@reference.')));
    const references = compile(patterns.filter((line) => line.includes('@reference.')));
    const parser = new Parser();
    parser.setLanguage(language);
    return { language: spec, parser, definitions, references, captureNames: [...definitions.captureNames, ...references.captureNames] };
  }
}

async function compileGrammar(fileName: string, grammarPath: string): Promise<Language> {
  const bytes = await readAsset(grammarPath, 'grammar');
  try {
    return await Language.load(bytes);
  } catch (error) {
    throw new GrammarError(`Herald: grammar ${fileName} at ${grammarPath} could not be loaded (${describeError(error)})`);
  }
}

async function readAsset(filePath: string, what: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await fs.promises.readFile(filePath));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new GrammarError(`Herald: ${what} ${path.basename(filePath)} not found at ${filePath}`);
    throw new GrammarError(`Herald: ${what} ${path.basename(filePath)} could not be read at ${filePath} (${describeError(error)})`);
  }
}

/**
 * Finds the files next to the running bundle (the extension's and the CLI's `dist/`, where the
 * build copies them flat), else in node_modules (tests, benchmarks, running from source).
 */
export function defaultAssetLocator(here: string = typeof __dirname === 'string' ? __dirname : process.cwd()): AssetLocator {
  return {
    wasmPath(fileName: string): string {
      const beside = path.join(here, fileName);
      if (fs.existsSync(beside)) return beside;
      return nodeModulesAssetLocator().wasmPath(fileName);
    },
  };
}

/** Resolves the runtime from `web-tree-sitter` and grammars from `@vscode/tree-sitter-wasm`. */
export function nodeModulesAssetLocator(root = findPackageRoot()): AssetLocator {
  return {
    wasmPath(fileName: string): string {
      if (fileName === RUNTIME_FILE) return path.join(root, 'node_modules', 'web-tree-sitter', RUNTIME_FILE);
      return path.join(root, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm', fileName);
    },
  };
}

/** The nearest folder above this module (or the working directory) that has the packages installed. */
function findPackageRoot(): string {
  const starts = [typeof __dirname === 'string' ? __dirname : undefined, process.cwd()].filter((start): start is string => start !== undefined);
  for (const start of starts) {
    let current = start;
    for (;;) {
      if (fs.existsSync(path.join(current, 'node_modules', 'web-tree-sitter'))) return current;
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  return process.cwd();
}

