import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RecordingLogger } from '../../../src/core/ports';
import { usableEmbeddingFolder } from '../../../src/vscode/embedding/embeddingFolder';
import { writeTinyEmbeddingModel } from '../../../scripts/makeTinyEmbeddingModel';

describe('embedding model folder setting', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-embedding-folder-'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('passes a complete, verified folder on and says nothing', () => {
    const folder = path.join(root, 'good');
    writeTinyEmbeddingModel(folder);
    const logger = new RecordingLogger();
    assert.equal(usableEmbeddingFolder(` ${folder} `, logger), folder);
    assert.equal(usableEmbeddingFolder('', logger), undefined);
    assert.equal(logger.lines.length, 0);
  });

  it('leaves out a missing or damaged folder with one warning naming the fix', () => {
    const logger = new RecordingLogger();
    assert.equal(usableEmbeddingFolder(path.join(root, 'absent'), logger), undefined);
    const damaged = path.join(root, 'damaged');
    writeTinyEmbeddingModel(damaged);
    fs.appendFileSync(path.join(damaged, 'tokenizer.json'), ' ');
    assert.equal(usableEmbeddingFolder(damaged, logger), undefined);
    assert.equal(logger.lines.length, 2);
    assert.ok(logger.lines.every((entry) => entry.code === 'embedding-model-unusable' && /Download Embedding Model/.test(entry.message)));
    assert.match(logger.lines[1]!.message, /damaged/);
  });
});
