import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { shippedEmbedder } from '../../../src/cli/shippedModel';
import { bundledModelFolder } from '../../../src/core/relevance';

describe('CLI: the shipped retrieval model', () => {
  it('loads the shipped model unless --lexical is given', async () => {
    const warnings: string[] = [];
    const embedder = await shippedEmbedder('filter', false, (line) => warnings.push(line));
    assert.match(embedder?.name ?? '', /^herald-retrieval/);
    assert.equal(await shippedEmbedder('filter', true, (line) => warnings.push(line)), undefined);
    assert.deepEqual(warnings, []);
  });

  it('goes on by words, with one warning, when the model is damaged or missing', async () => {
    const damaged = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-model-'));
    fs.cpSync(bundledModelFolder()!, damaged, { recursive: true });
    const file = path.join(damaged, 'model.bin');
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const warnings: string[] = [];
    assert.equal(await shippedEmbedder('context', false, (line) => warnings.push(line), () => damaged), undefined);
    assert.equal(await shippedEmbedder('filter', false, (line) => warnings.push(line), () => undefined), undefined);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0]!, /^herald context: the shipped retrieval model could not be loaded \(.+\); scoring by words only$/);
    assert.match(warnings[1]!, /^herald filter: the shipped retrieval model .* is not installed here/);
  });
});
