import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveOnnxModelFolder } from '../../../src/core/relevance/embedding/modelFolder';
import { DownloadCancelledError, downloadModel, type DownloadFetch, type PinnedModel } from '../../../src/vscode/embedding/modelDownload';
import { writeTinyEmbeddingModel } from '../../../scripts/makeTinyEmbeddingModel';

/** Node's fetch, typed as the download wants it (its body is an async iterable of bytes). */
const nodeFetch: DownloadFetch = async (url, init) => {
  const response = await fetch(url, { signal: init.signal });
  return { ok: response.ok, status: response.status, statusText: response.statusText, body: response.body as unknown as AsyncIterable<Uint8Array> | null };
};

describe('embedding model download', function () {
  this.timeout(10_000);
  let root: string;
  let source: string;
  let server: http.Server;
  let base: string;
  /** When set, the server sends the first bytes of a file and then waits for this to resolve. */
  let stall: Promise<void> | undefined;
  let stalled: () => void = () => undefined;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-download-'));
    source = path.join(root, 'published');
    writeTinyEmbeddingModel(source);
    server = http.createServer((request, response) => {
      const file = path.join(source, decodeURIComponent((request.url ?? '/').slice(1)));
      if (!file.startsWith(source) || !fs.existsSync(file)) {
        response.writeHead(404).end('Entry not found');
        return;
      }
      const bytes = fs.readFileSync(file);
      response.writeHead(200, { 'content-length': String(bytes.length) });
      if (!stall) {
        response.end(bytes);
        return;
      }
      response.write(bytes.subarray(0, 16));
      stalled();
      void stall.then(() => response.end(bytes.subarray(16))).catch(() => response.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => {
    server.closeAllConnections();
    server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  function pinned(overrides: Partial<Record<string, string>> = {}): PinnedModel {
    const file = (name: string) => {
      const bytes = fs.readFileSync(path.join(source, name));
      return { url: `${base}/${name}`, name, sha256: overrides[name] ?? createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
    };
    return { name: 'tiny', dimension: 16, maxTokens: 64, pooling: 'mean', files: [file('model.onnx'), file('tokenizer.json')] };
  }

  function leftovers(parent: string): string[] {
    return fs.existsSync(parent) ? fs.readdirSync(parent).filter((name) => name.includes('.partial-') || name.includes('.previous-')) : [];
  }

  it('downloads, verifies and writes a manifest the model loader accepts, reporting progress to the total', async () => {
    const destination = path.join(root, 'ok', 'tiny');
    const progress: number[] = [];
    await downloadModel(pinned(), destination, { fetch: nodeFetch, signal: new AbortController().signal, onProgress: (step) => progress.push(step.receivedBytes / step.totalBytes) });
    const folder = resolveOnnxModelFolder(destination);
    assert.equal(folder.manifest?.name, 'tiny');
    assert.equal(folder.tokenizerFormat, 'tokenizer.json');
    assert.deepEqual(Object.keys(folder.manifest?.files ?? {}).sort(), ['model.onnx', 'tokenizer.json']);
    assert.equal(progress[progress.length - 1], 1);
    assert.deepEqual(leftovers(path.dirname(destination)), []);
  });

  it('refuses bytes that do not match the pinned checksum and leaves nothing behind, not even over an older copy', async () => {
    const destination = path.join(root, 'bad', 'tiny');
    await downloadModel(pinned(), destination, { fetch: nodeFetch, signal: new AbortController().signal });
    const before = fs.readFileSync(path.join(destination, 'herald-model.json'), 'utf8');
    await assert.rejects(
      downloadModel(pinned({ 'tokenizer.json': 'a'.repeat(64) }), destination, { fetch: nodeFetch, signal: new AbortController().signal }),
      /tokenizer\.json .* does not match its pinned checksum .*expected a{64}.*nothing was installed/,
    );
    assert.equal(fs.readFileSync(path.join(destination, 'herald-model.json'), 'utf8'), before, 'the working copy is untouched');
    assert.deepEqual(leftovers(path.dirname(destination)), []);
  });

  it('reports a missing file with its status and leaves no folder', async () => {
    const destination = path.join(root, 'missing', 'tiny');
    const model = pinned();
    const broken = { ...model, files: [model.files[0]!, { ...model.files[1]!, url: `${base}/nope.json` }] };
    await assert.rejects(downloadModel(broken, destination, { fetch: nodeFetch, signal: new AbortController().signal }), /nope\.json failed: 404/);
    assert.equal(fs.existsSync(destination), false);
    assert.deepEqual(leftovers(path.dirname(destination)), []);
  });

  it('stops on cancellation in the middle of a file and removes what it wrote', async () => {
    const destination = path.join(root, 'cancel', 'tiny');
    const abort = new AbortController();
    let release: () => void = () => undefined;
    stall = new Promise<void>((resolve) => (release = resolve));
    stalled = () => abort.abort();
    try {
      await assert.rejects(downloadModel(pinned(), destination, { fetch: nodeFetch, signal: abort.signal }), (error: unknown) => error instanceof DownloadCancelledError);
    } finally {
      stall = undefined;
      release();
    }
    assert.equal(fs.existsSync(destination), false);
    assert.deepEqual(leftovers(path.dirname(destination)), []);
  });
});
