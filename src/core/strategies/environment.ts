import type { AssetLocator, Logger } from '../ports';

/** What strategy factories may need from the host beyond the per-request context. */
export interface StrategyEnvironment {
  /** Where bundled .wasm files are (tree-sitter grammars, onnxruntime). */
  readonly assets?: AssetLocator;
  readonly logger?: Logger;
  /** A local embedding model folder, when the user configured one. */
  readonly embeddingModelDir?: string;
}
