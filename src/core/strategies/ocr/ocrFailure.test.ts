import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseRequest, serializeRequest } from '../../chat';
import { Pipeline } from '../../pipeline';
import { RecordingLogger } from '../../ports';
import { MemoryBlobStore, Stash } from '../../stash';
import { bundledEnvironment } from '../environment';
import { createVisionOcr } from '../visionOcr';
import { bundledOcrFiles, OCR_MODEL_FILE, OCR_WORKER_FILE } from './ocrAssets';
import type { OcrEngine } from './ocrEngine';
import { encodePng } from '../../../../test/support/testImages';

/** A white PNG with a dark bar: a flat background, so vision_ocr asks the engine to read it. */
function flatImage(): Buffer {
  const width = 64;
  const height = 32;
  const pixels = new Uint8Array(width * height).fill(255);
  for (let x = 8; x < 56; x++) for (let y = 14; y < 18; y++) pixels[y * width + x] = 0;
  return encodePng(width, height, 1, pixels);
}

describe('vision_ocr when the OCR engine cannot run', () => {
  it('keeps the image, says why in the decision and warns the host once per request', async () => {
    const broken: OcrEngine = { read: () => Promise.reject(new Error('Tesseract core tesseract-core-simd.wasm not found')) };
    const url = `data:image/png;base64,${flatImage().toString('base64')}`;
    const body = { model: 'gpt-4o', messages: [
      { role: 'user', content: [{ type: 'text', text: 'What does this say?' }, { type: 'image_url', image_url: { url } }] },
      { role: 'assistant', content: 'Let me look.' },
      { role: 'user', content: 'Well?' },
    ] };
    const logger = new RecordingLogger();
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const pipeline = new Pipeline([createVisionOcr({}, broken)], { enabled: { vision_ocr: true } }, { stash, logger });
    const result = await pipeline.run(parseRequest(body));
    assert.deepEqual(serializeRequest(result.request), body, 'the request goes on untouched');
    const decision = result.decisions[0]!;
    assert.equal(decision.action, 'images-kept');
    assert.match(decision.reason, /OCR failed: Tesseract core tesseract-core-simd\.wasm not found/);
    assert.equal(decision.details?.failed, 1);
    assert.deepEqual(logger.lines.map((line) => line.code), ['ocr-failed']);
  });
});

describe('OCR files beside a bundle', () => {
  it('are found only when the worker and the model are both there', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-ocr-assets-'));
    try {
      assert.equal(bundledOcrFiles(folder), undefined);
      fs.writeFileSync(path.join(folder, OCR_WORKER_FILE), '');
      assert.equal(bundledOcrFiles(folder), undefined, 'a worker without the model is no OCR');
      fs.writeFileSync(path.join(folder, OCR_MODEL_FILE), '');
      assert.deepEqual(bundledOcrFiles(folder), { workerPath: path.join(folder, OCR_WORKER_FILE), corePath: folder, langPath: folder });
      assert.deepEqual(Object.keys(bundledEnvironment(folder)), ['ocr'], 'no tree-sitter runtime there: the default asset locator stays');
      fs.writeFileSync(path.join(folder, 'tree-sitter.wasm'), '');
      assert.equal(bundledEnvironment(folder).assets?.wasmPath('tree-sitter-python.wasm'), path.join(folder, 'tree-sitter-python.wasm'));
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('are not found in the source tree, so tests and benchmarks use node_modules', () => {
    assert.deepEqual(bundledEnvironment(__dirname), {});
  });
});
