/**
 * The retrieval model the CLI's `filter` and `context` score with: the one Herald ships
 * (media/model/herald-retrieval), unless `--lexical` asks for words only. Fail-open: a missing
 * or damaged model is reported on stderr and the command goes on with lexical scoring, as the
 * extension does.
 */
import { bundledModelFolder, loadEmbedder, type Embedder } from '../core/relevance';
import { describeError } from '../core/errors';

/**
 * The shipped model's embedder, or undefined (lexical scoring) when `lexical` is set or the
 * model cannot be loaded; `warn` gets one line saying why. `locate` finds the model's folder
 * (tests point it at a damaged copy, or at none).
 */
export async function shippedEmbedder(command: string, lexical: boolean, warn: (line: string) => void, locate: () => string | undefined = () => bundledModelFolder()): Promise<Embedder | undefined> {
  if (lexical) return undefined;
  const folder = locate();
  if (folder === undefined) {
    warn(`herald ${command}: the shipped retrieval model (media/model/herald-retrieval) is not installed here; scoring by words only`);
    return undefined;
  }
  try {
    return await loadEmbedder(folder);
  } catch (error) {
    warn(`herald ${command}: the shipped retrieval model could not be loaded (${describeError(error).replace(/^Herald: /, '')}); scoring by words only`);
    return undefined;
  }
}
