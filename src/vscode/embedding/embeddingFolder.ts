/**
 * The embedding model folder the settings name, checked before the strategies are built: a
 * folder that is missing, incomplete or damaged is reported once and left out, so relevance
 * falls back to lexical scoring instead of failing on every request.
 */
import type { Logger } from '../../core/ports';
import { resolveModelFolder } from '../../core/relevance/embedding/modelFolder';
import { describeError } from '../../core/errors';

/** The folder when it holds a loadable model (manifest and checksums checked), else undefined. */
export function usableEmbeddingFolder(folder: string, logger: Logger): string | undefined {
  const trimmed = folder.trim();
  if (trimmed.length === 0) return undefined;
  try {
    return resolveModelFolder(trimmed).directory;
  } catch (error) {
    logger.warn('embedding-model-unusable', `${describeError(error)}. Herald uses lexical relevance until herald.embedding.modelFolder names a working model (or run "Herald: Download Embedding Model").`);
    return undefined;
  }
}
