/**
 * The pipeline as it ships: a checkout's core (pipeline, stash, strategies, token counter)
 * bundled by esbuild with the settings `esbuild.mjs` gives the CLI and the extension (one
 * CommonJS file for Node 20, `import.meta.url` shimmed), then loaded. Code run from source
 * through tsx reaches every other module's functions through getters on an exports object,
 * which a bundle does not (a cold decision from source took 1.02 to 1.04 times the bundle's time,
 * alternated in one process). A speed bench measures this form, the one users run, and can
 * measure a second checkout's the same way for a paired figure.
 */
import * as path from 'node:path';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import type * as pipelineModule from '../../src/core/pipeline';
import type * as stashModule from '../../src/core/stash';
import type * as strategiesModule from '../../src/core/strategies';
import type * as tokensModule from '../../src/core/tokens';

/** What a speed bench builds a pipeline from. */
export interface PipelineCore {
  readonly label: string;
  readonly Pipeline: typeof pipelineModule.Pipeline;
  readonly MemoryBlobStore: typeof stashModule.MemoryBlobStore;
  readonly Stash: typeof stashModule.Stash;
  readonly createStrategies: typeof strategiesModule.createStrategies;
  readonly TokenCounter: typeof tokensModule.TokenCounter;
  /** Empties the token counter's piece tables; absent from a checkout older than it (6 December). */
  readonly forgetPieces?: () => void;
  /**
   * Empties gpt-tokenizer's own cache of merged pieces (100,000 of them), in a checkout whose
   * counter still hands new pieces to gpt-tokenizer (before o200kBpe.ts): without it, a piece met
   * in an earlier run is a cache hit there however empty Herald's tables are.
   */
  readonly forgetMergeCache?: () => void;
}

const ENTRY = [
  "export { Pipeline } from './src/core/pipeline';",
  "export { MemoryBlobStore, Stash } from './src/core/stash';",
  "export { createStrategies } from './src/core/strategies';",
  "export * as tokens from './src/core/tokens';",
].join('\n');
/** Bundled only for a checkout whose counter calls gpt-tokenizer (the same module instance as its counter's). */
const GPT_TOKENIZER_CACHE = "export { clearMergeCache } from 'gpt-tokenizer/encoding/o200k_base';";

/**
 * Bundles `tree`'s core into `<tree>/bench-results/.bundle/core.js` and returns that path. The
 * bundle sits inside the checkout, so the grammars are found in its node_modules as the tests
 * find them.
 */
export async function bundleCore(tree: string): Promise<string> {
  const root = path.resolve(tree);
  const counter = path.join(root, 'src', 'core', 'tokens', 'o200kCount.ts');
  const usesGptTokenizer = existsSync(counter) && readFileSync(counter, 'utf8').includes("from 'gpt-tokenizer/encoding/o200k_base'");
  const outfile = path.join(root, 'bench-results', '.bundle', 'core.js');
  mkdirSync(path.dirname(outfile), { recursive: true });
  try {
    await build({
      stdin: { contents: usesGptTokenizer ? `${ENTRY}\n${GPT_TOKENIZER_CACHE}` : ENTRY, resolveDir: root, loader: 'ts', sourcefile: 'bench-core.ts' },
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      define: { 'import.meta.url': '__heraldImportMetaUrl' },
      banner: { js: "const __heraldImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
      external: ['vscode'],
      logLevel: 'silent',
      legalComments: 'none',
    });
  } catch (error) {
    throw new Error(`Herald bench: could not bundle the core of ${root} (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); is it a checkout with node_modules installed?`);
  }
  return outfile;
}

/** A core bundled by {@link bundleCore}, loaded. */
export function loadBundledCore(outfile: string, label: string): PipelineCore {
  const core = createRequire(__filename)(outfile) as Omit<PipelineCore, 'label' | 'TokenCounter' | 'forgetPieces' | 'forgetMergeCache'> & { tokens: Partial<typeof tokensModule> & Pick<typeof tokensModule, 'TokenCounter'>; clearMergeCache?: () => void };
  return { label, Pipeline: core.Pipeline, MemoryBlobStore: core.MemoryBlobStore, Stash: core.Stash, createStrategies: core.createStrategies, TokenCounter: core.tokens.TokenCounter, forgetPieces: core.tokens.forgetPieces, forgetMergeCache: core.clearMergeCache };
}

/** `tree`'s core from its sources, as tsx runs them (the form the tests run). */
export async function sourceCore(tree: string, label: string): Promise<PipelineCore> {
  const load = async (relative: string): Promise<unknown> => import(path.resolve(tree, relative));
  const pipeline = (await load('src/core/pipeline')) as typeof pipelineModule;
  const stash = (await load('src/core/stash')) as typeof stashModule;
  const strategies = (await load('src/core/strategies')) as typeof strategiesModule;
  const tokens = (await load('src/core/tokens')) as Partial<typeof tokensModule> & Pick<typeof tokensModule, 'TokenCounter'>;
  return { label, Pipeline: pipeline.Pipeline, MemoryBlobStore: stash.MemoryBlobStore, Stash: stash.Stash, createStrategies: strategies.createStrategies, TokenCounter: tokens.TokenCounter, forgetPieces: tokens.forgetPieces };
}
