/**
 * The built bundles run from a copy of dist/ alone, as they do from the VSIX (which ships no
 * node_modules): every file they load at run time must be in that copy. The CLI fills its
 * strategy environment from its own folder exactly as the extension host does from
 * `<extension>/dist`, so these runs cover the extension's asset paths too.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { parseRequest, serializeRequest } from '../../../src/core/chat';
import { grammarFiles, LANGUAGES } from '../../../src/core/code/languages';
import { GrammarLoader, RUNTIME_FILE } from '../../../src/core/code/grammarLoader';
import { Pipeline, type Decision } from '../../../src/core/pipeline';
import { RUNTIME_FILES } from '../../../src/core/relevance/embedding/onnxEmbedder';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { implementedStrategyIds } from '../../../src/core/strategies';
import { createCodeGraph } from '../../../src/core/strategies/codeGraph';
import { OCR_CORE_FILES, OCR_MODEL_FILE, OCR_WORKER_FILE } from '../../../src/core/strategies/ocr/ocrAssets';
import { hasTestFont, textScreenshot } from '../../support/testImages';
import { writeTinyEmbeddingModel } from '../../../scripts/makeTinyEmbeddingModel';
import { loadTrajectory, sharedPath, skipWithoutData, turnRequests } from '../../support/sharedData';
import { copyDistAlone, ensureBuilt, reachableNodeModules, runBundledCli, runNode } from './builtDist';

interface Report {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly decisions: Decision[];
  readonly problems: { level: string; code: string; message: string }[];
}

/**
 * `--enable id --disable every other implemented strategy`: one strategy alone, with a time
 * limit that a busy machine starting the OCR engine or the ONNX runtime stays well under.
 */
function only(id: string): string[] {
  return ['--enable', id, '--disable', implementedStrategyIds().filter((other) => other !== id).join(','), '--time-limit', '60000'];
}

describe('built bundles from a copy of dist/ alone', function () {
  let dist = '';
  let home = '';

  before(function () {
    // A build takes seconds, more on a busy machine; it runs only when dist/ is missing or stale.
    this.timeout(180_000);
    ensureBuilt();
    dist = copyDistAlone();
    home = path.dirname(dist);
  });

  after(() => {
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  /** Runs `optimize` on a request with the given options; returns the request out and the decisions report. */
  async function optimize(body: unknown, options: string[], stash: string, nodeFlags: string[] = []): Promise<{ output: unknown; report: Report }> {
    const decisions = path.join(home, `decisions-${path.basename(stash)}.json`);
    const run = await runBundledCli(dist, ['optimize', '--stash', stash, '--decisions', decisions, ...options], JSON.stringify(body), nodeFlags);
    assert.equal(run.code, 0, run.stderr);
    return { output: JSON.parse(run.stdout) as unknown, report: JSON.parse(fs.readFileSync(decisions, 'utf8')) as Report };
  }

  function decisionOf(report: Report, strategy: string): Decision {
    const decision = report.decisions.find((candidate) => candidate.strategy === strategy);
    assert.ok(decision, `no ${strategy} decision`);
    return decision;
  }

  it('has no node_modules within reach of the copy', () => {
    assert.deepEqual(reachableNodeModules(dist), []);
  });

  it('ships every file the bundles load, and no wasm they never load', () => {
    const expected = [RUNTIME_FILE, ...grammarFiles(), ...RUNTIME_FILES, OCR_WORKER_FILE, ...OCR_CORE_FILES, OCR_MODEL_FILE];
    for (const name of ['cli.js', 'extension.js', ...expected]) assert.ok(fs.existsSync(path.join(dist, name)), `${name} is missing from dist/`);
    const wasm = fs.readdirSync(dist).filter((name) => name.endsWith('.wasm')).sort();
    assert.deepEqual(wasm, expected.filter((name) => name.endsWith('.wasm')).sort(), 'dist/ holds exactly the wasm files the code loads');
  });

  it('leaves only Node built-ins (and vscode, in the extension) to be required at run time', () => {
    // undici (the CLI's upstream client) probes for node:sqlite inside a try, which Node 20 does not have yet.
    const builtins = new Set([...builtinModules.flatMap((name) => [name, `node:${name}`]), 'node:sqlite']);
    for (const [bundle, allowed] of [['cli.js', []], ['extension.js', ['vscode']], [OCR_WORKER_FILE, []]] as const) {
      const text = fs.readFileSync(path.join(dist, bundle), 'utf8');
      const loaded = [...text.matchAll(/\b(?:require|import)\(\s*"([^"]+)"\s*\)/g)].map((match) => match[1]!);
      assert.ok(loaded.length > 0, `${bundle}: no require found (the pattern is out of date)`);
      const outside = [...new Set(loaded.filter((name) => !builtins.has(name) && !(allowed as readonly string[]).includes(name)))];
      assert.deepEqual(outside, [], `${bundle} requires packages that are not in the VSIX`);
    }
  });

  it('loads the extension bundle outside VS Code (a stand-in vscode module), with activate and deactivate', async () => {
    const loader = path.join(home, 'load-extension.js');
    fs.writeFileSync(loader, [
      "const Module = require('module');",
      'const original = Module._load;',
      // Every property of the stand-in is another stand-in, callable and constructible.
      'const handler = { get: (target, key) => (key === "__esModule" ? false : new Proxy(function () {}, handler)), construct: () => new Proxy({}, handler), apply: () => new Proxy(function () {}, handler) };',
      "Module._load = function (request) { return request === 'vscode' ? new Proxy({}, handler) : original.apply(this, arguments); };",
      'const extension = require(process.argv[2]);',
      'process.stdout.write(JSON.stringify(Object.keys(extension).sort()));',
    ].join('\n'));
    const run = await runNode(dist, [loader, path.join(dist, 'extension.js')]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), ['activate', 'deactivate']);
  });

  it('code_graph: outlines a real source read as the source tree does, and expand brings it back byte for byte', async function () {
    skipWithoutData(this);
    // A real mini-swe-agent run: the agent cats astropy/modeling/separable.py, then keeps working.
    const body = turnRequests(loadTrajectory('astropy__astropy-12907'))[8]!;
    const stash = path.join(home, 'code-stash');
    // Its outline saves less than a rewrite of a cached read must (the cache rule has its own tests): share 0 lets it through.
    const { output, report } = await optimize(body, [...only('code_graph'), '--rewrite-share', '0'], stash);
    const bundled = decisionOf(report, 'code_graph');
    assert.equal(bundled.status, 'applied', bundled.reason);
    assert.equal(bundled.action, 'source-outlined');
    assert.ok(bundled.tokensAfter < bundled.tokensBefore);

    // The same strategy from the source tree (node_modules' grammars) decides the same (the
    // handles differ with the stash key, so the token count after may differ by a few).
    const source = (await new Pipeline([createCodeGraph()], { cachedRewriteMinSavedShare: 0 }, { stash: new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) }) }).run(parseRequest(body))).decisions[0]!;
    assert.deepEqual([bundled.action, bundled.tokensBefore, bundled.details], [source.action, source.tokensBefore, source.details]);

    const expanded = await runBundledCli(dist, ['expand', '--stash', stash], JSON.stringify(output));
    assert.equal(expanded.code, 0, expanded.stderr);
    assert.equal(expanded.stdout.trimEnd(), JSON.stringify(serializeRequest(parseRequest(body))));
  });

  it('code_graph: every grammar in dist/ compiles with the tree-sitter runtime in dist/', async () => {
    const loader = new GrammarLoader({ wasmPath: (fileName) => path.join(dist, fileName) });
    for (const language of LANGUAGES) {
      const grammar = await loader.load(language);
      assert.ok(grammar.parser.parse('x')?.rootNode, `${language.id} parses`);
    }
  });

  it('vision_ocr: reads a text screenshot in history with the bundled worker, core and model (relaxed SIMD on, as in Electron)', async function () {
    if (!hasTestFont()) this.skip();
    const lines = ['Traceback (most recent call last):', '  File "app/main.py", line 42, in run', '    result = parse(config)', 'ValueError: invalid port 80800'];
    const screenshot = `data:image/png;base64,${textScreenshot(lines).toString('base64')}`;
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Why does the app crash on start?' }, { type: 'image_url', image_url: { url: screenshot } }] },
        { role: 'assistant', content: 'The port is out of range.' },
        { role: 'user', content: 'Which file sets it?' },
      ],
    };
    const stash = path.join(home, 'ocr-stash');
    // With relaxed SIMD on, as in VS Code's Electron, tesseract.js would pick its relaxed-SIMD
    // core, which dist/ does not ship: the build points that choice at the SIMD core.
    const { output, report } = await optimize(body, only('vision_ocr'), stash, ['--experimental-wasm-relaxed-simd']);
    const decision = decisionOf(report, 'vision_ocr');
    assert.equal(decision.action, 'screenshots-read-as-text', decision.reason);
    assert.deepEqual(report.problems, []);
    const text = JSON.stringify(output);
    assert.ok(!text.includes(screenshot), 'the image is swapped out');
    const words = lines.join(' ').split(/\s+/).filter(Boolean);
    const read = words.filter((word) => text.includes(JSON.stringify(word).slice(1, -1))).length / words.length;
    assert.ok(read >= 0.8, `only ${Math.round(read * 100)}% of the words were read: ${text}`);
    const original = await runBundledCli(dist, ['retrieve', decision.handles[0]!, '--stash', stash]);
    assert.equal(original.stdout, screenshot, 'the image comes back byte for byte');
  });

  it('vision_ocr: without its Tesseract core keeps the image, reports the problem and the CLI still exits cleanly', async function () {
    if (!hasTestFont()) this.skip();
    // A partial dist/: the bundles and the model, no core.
    const partial = path.join(home, 'partial', 'dist');
    fs.mkdirSync(partial, { recursive: true });
    for (const name of ['cli.js', OCR_WORKER_FILE, OCR_MODEL_FILE]) fs.copyFileSync(path.join(dist, name), path.join(partial, name));
    const url = `data:image/png;base64,${textScreenshot(['Error: disk full', 'at write (fs.js:1:1)']).toString('base64')}`;
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'and?' }] };
    const decisions = path.join(home, 'partial', 'decisions.json');
    const run = await runBundledCli(partial, ['optimize', '--stash', path.join(home, 'partial', 'stash'), '--decisions', decisions, ...only('vision_ocr')], JSON.stringify(body));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), body, 'the request goes on untouched');
    const report = JSON.parse(fs.readFileSync(decisions, 'utf8')) as Report;
    assert.match(decisionOf(report, 'vision_ocr').reason, /OCR failed: .*tesseract-core/);
    assert.deepEqual(report.problems.map((problem) => problem.code), ['ocr-failed']);
  });

  it('embeddings: relevance_filter ranks with a local ONNX model given by --embedding-model', async function () {
    skipWithoutData(this);
    const modelDir = path.join(home, 'tiny-embedding');
    writeTinyEmbeddingModel(modelDir);
    const log = fs.readFileSync(sharedPath('logs', 'OpenSSH', 'OpenSSH_2k.log'), 'utf8').split('\n').filter(Boolean).slice(0, 300).join('\n');
    // Bulk pasted under a question: what relevance_filter filters by default.
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: `Which users had invalid passwords from which addresses?\n\n${log}` }] };
    const { report } = await optimize(body, [...only('relevance_filter'), '--embedding-model', modelDir], path.join(home, 'embedding-stash'));
    const decision = decisionOf(report, 'relevance_filter');
    assert.equal(decision.status, 'applied', decision.reason);
    assert.equal(decision.details?.mode, 'fused', decision.reason);
    assert.deepEqual(report.problems, [], 'the model loaded without a warning');
  });
});
