import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findToolOutputs, parseRequest, type ChatRequest } from '../chat';
import { nodeModulesAssetLocator, RUNTIME_FILE } from '../code/grammarLoader';
import { Pipeline, type Decision } from '../pipeline';
import { findMarkers, MemoryBlobStore, Stash } from '../stash';
import { TokenCounter } from '../tokens';
import { createCodeGraph } from './codeGraph';

const assets = nodeModulesAssetLocator();

/** A TypeScript file: totalPrice calls applyDiscount; the other functions are unrelated. */
const CART_TS = [
  "import { round } from './math';",
  '',
  '/** Sum of the lines, after discounts. */',
  'export function totalPrice(lines: Line[]): number {',
  '  let total = 0;',
  '  for (const line of lines) {',
  '    total += line.price * line.quantity;',
  '  }',
  '  return applyDiscount(total, lines.length);',
  '}',
  '',
  'function applyDiscount(total: number, count: number): number {',
  '  // Ten lines or more earn the bulk rate.',
  '  if (count > 10) {',
  '    return round(total * 0.9);',
  '  }',
  '  return total;',
  '}',
  '',
  'export function formatReceipt(lines: Line[]): string {',
  '  const rows = lines.map((line) => `${line.name}: ${line.price}`);',
  '  rows.push("---");',
  '  rows.push(`total: ${totalPrice(lines)}`);',
  '  rows.push("thank you");',
  '  return rows.join("\\n");',
  '}',
  '',
  'export function parseCart(json: string): Line[] {',
  '  const value = JSON.parse(json);',
  '  if (!Array.isArray(value)) {',
  '    throw new Error("not a cart");',
  '  }',
  '  return value.map((item) => ({ ...item }));',
  '}',
  '',
  'export class CartStore {',
  '  constructor(private readonly path: string) {',
  '    this.cache = new Map();',
  '    this.loaded = false;',
  '    this.path = path;',
  '    this.dirty = false;',
  '    this.version = 1;',
  '  }',
  '  save(lines: Line[]): void {',
  '    const text = JSON.stringify(lines);',
  '    writeFile(this.path, text);',
  '    this.dirty = false;',
  '    this.loaded = true;',
  '    this.version++;',
  '  }',
  '}',
].join('\n');

const UTIL_TS = ['export function round(value: number): number {', '  return Math.round(value * 100) / 100;', '}'].join('\n');

function call(id: string, name: string, args: unknown): unknown {
  return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
}

function conversation(task: string, reads: { id: string; path: string; text: string; name?: string }[], between: unknown[] = []): ChatRequest {
  const messages: unknown[] = [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: task }];
  for (const read of reads) {
    messages.push(call(read.id, read.name ?? 'read_file', { filePath: read.path }));
    messages.push({ role: 'tool', tool_call_id: read.id, content: read.text });
  }
  messages.push(...between);
  return parseRequest({ model: 'gpt-4o', messages });
}

/**
 * A pipeline of code_graph alone. The fixtures are small files whose outlines save less than a
 * rewrite of a cached read has to (a fifth to a third), so the targeting tests set the pipeline's
 * share to 0; the cache rule has its own test with the default.
 */
function setup(options: Record<string, unknown> = {}, locator = assets, cachedRewriteMinSavedShare: number | undefined = 0): { pipeline: Pipeline; stash: Stash } {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const pipeline = new Pipeline([createCodeGraph({ assets: locator })], { options: { code_graph: options }, cachedRewriteMinSavedShare }, { stash });
  return { pipeline, stash };
}

function toolText(request: ChatRequest, messageIndex: number): string {
  const segment = findToolOutputs(request).find((candidate) => candidate.messageIndex === messageIndex);
  assert.ok(segment, `no tool output in message ${messageIndex}`);
  return segment.text;
}

function body(code: string, signature: string): string {
  const lines = code.split('\n');
  const start = lines.findIndex((line) => line.includes(signature));
  let end = start;
  while (lines[end] !== '}' && lines[end] !== '  }') end++;
  return lines.slice(start, end + 1).join('\n');
}

function decisionOf(decisions: readonly Decision[]): Decision {
  const decision = decisions.find((candidate) => candidate.strategy === 'code_graph');
  assert.ok(decision);
  return decision;
}

describe('code_graph strategy', () => {
  it('leaves a read whole when its outline would not pay for rewriting what the provider cached, and stashes nothing for it', async () => {
    const request = conversation('totalPrice() is wrong for big carts', [
      { id: 'a', path: 'src/cart.ts', text: CART_TS },
      { id: 'b', path: 'src/math.ts', text: UTIL_TS },
    ]);
    const tokens = new TokenCounter(1000);
    const { pipeline: free } = setup();
    const outlinedShare = 1 - tokens.count(toolText((await free.run(request)).request, 3)) / tokens.count(CART_TS);
    assert.ok(outlinedShare > 0.1 && outlinedShare < 0.4, `the outline saves ${(outlinedShare * 100).toFixed(0)}%, under the default share`);

    const store = new MemoryBlobStore();
    const pipeline = new Pipeline([createCodeGraph({ assets })], {}, { stash: new Stash({ store, key: new Uint8Array(32) }) });
    const result = await pipeline.run(request);
    assert.equal(toolText(result.request, 3), CART_TS);
    const decision = decisionOf(result.decisions);
    assert.equal(decision.action, 'nothing-to-do');
    assert.equal(decision.details?.keptForCache, 1);
    assert.match(decision.reason, /would not have paid for rewriting a cached read/);
    assert.deepEqual(decision.handles, []);
    assert.deepEqual(await store.list(), [], 'no body was stashed');

    const { pipeline: lower } = setup({}, assets, outlinedShare - 0.01);
    assert.notEqual(toolText((await lower.run(request)).request, 3), CART_TS, 'a share just under what the outline saves lets it through');
  });

  it('keeps the targeted function and its callee in full and outlines the rest, losslessly', async () => {
    const { pipeline, stash } = setup();
    const request = conversation('totalPrice() is wrong for big carts', [
      { id: 'a', path: 'src/cart.ts', text: CART_TS },
      { id: 'b', path: 'src/math.ts', text: UTIL_TS },
    ]);
    const result = await pipeline.run(request);
    const outlined = toolText(result.request, 3);
    assert.ok(outlined.includes(body(CART_TS, 'export function totalPrice')), 'the targeted function is in full');
    assert.ok(outlined.includes(body(CART_TS, 'function applyDiscount')), 'its callee is in full');
    for (const signature of ['export function formatReceipt(lines: Line[]): string {', 'export function parseCart(json: string): Line[] {', '  save(lines: Line[]): void {', "import { round } from './math';", '/** Sum of the lines, after discounts. */', 'export class CartStore {']) {
      assert.ok(outlined.includes(signature), `keeps ${signature}`);
    }
    assert.ok(!outlined.includes('rows.push("thank you")'), 'an unrelated body is elided');
    const markers = findMarkers(outlined);
    assert.deepEqual(markers.map((marker) => marker.summary), ['5 lines of formatReceipt elided', '5 lines of parseCart elided', '5 lines of constructor elided', '5 lines of save elided']);
    assert.equal(await stash.expandText(outlined), CART_TS);
    assert.equal(toolText(result.request, 5), UTIL_TS, 'the fresh read is untouched');
    const decision = decisionOf(result.decisions);
    assert.equal(decision.status, 'applied');
    assert.equal(decision.action, 'source-outlined');
    assert.equal(decision.details?.bodiesElided, 4);
    assert.deepEqual([...decision.handles].sort(), markers.map((marker) => marker.handle).sort());
    assert.ok(decision.tokensAfter < decision.tokensBefore);
  });

  it('outlines an Anthropic editor read (Read tool, arrow-numbered lines) and keeps its numbers', async () => {
    const numbered = CART_TS.split('\n').map((line, index) => `${String(index + 1).padStart(6)}→${line}`).join('\n');
    const request = parseRequest({
      model: 'claude-sonnet-4-5',
      max_tokens: 1000,
      system: 'You are a coding agent.',
      messages: [
        { role: 'user', content: 'parseCart() rejects good carts' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: '/w/src/cart.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'r1', content: numbered }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Looking at the JSON handling.' }, { type: 'tool_use', id: 'r2', name: 'Read', input: { file_path: '/w/src/math.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'r2', content: UTIL_TS }] },
      ],
    });
    const { pipeline, stash } = setup();
    const result = await pipeline.run(request);
    const index = request.messages.findIndex((message) => message.parts.some((part) => part.type === 'tool_result'));
    const outlined = toolText(result.request, index);
    const lines = numbered.split('\n');
    const parseCart = lines.findIndex((line) => line.includes('export function parseCart'));
    assert.ok(outlined.includes(lines.slice(parseCart, parseCart + 7).join('\n')), 'the targeted function keeps its numbered lines');
    assert.ok(!outlined.includes('rows.push("thank you")'));
    assert.equal(await stash.expandText(outlined), numbered);
  });

  it('follows calls only as deep as calleeDepth says', async () => {
    const { pipeline } = setup({ calleeDepth: 0 });
    const result = await pipeline.run(conversation('totalPrice() is wrong', [{ id: 'a', path: 'src/cart.ts', text: CART_TS }, { id: 'b', path: 'src/math.ts', text: UTIL_TS }]));
    const outlined = toolText(result.request, 3);
    assert.ok(outlined.includes(body(CART_TS, 'export function totalPrice')));
    assert.ok(!outlined.includes(body(CART_TS, 'function applyDiscount')));
  });

  it('keeps a class constructor as context for a kept method', async () => {
    const { pipeline } = setup();
    const result = await pipeline.run(conversation('CartStore.save() loses data', [{ id: 'a', path: 'src/cart.ts', text: CART_TS }, { id: 'b', path: 'src/math.ts', text: UTIL_TS }]));
    const outlined = toolText(result.request, 3);
    assert.ok(outlined.includes(body(CART_TS, '  save(lines')));
    assert.ok(outlined.includes(body(CART_TS, '  constructor(')));
    assert.ok(!outlined.includes(body(CART_TS, 'export function parseCart')));
  });

  it('takes targets from earlier assistant messages only when conversationMentions is on', async () => {
    const earlier = [{ role: 'assistant', content: 'formatReceipt() looks suspicious' }, { role: 'user', content: 'ok' }];
    const build = (): ChatRequest => {
      const messages: unknown[] = [{ role: 'system', content: 'agent' }, { role: 'user', content: 'help' }, ...earlier];
      messages.push(call('a', 'read_file', { filePath: 'src/cart.ts' }), { role: 'tool', tool_call_id: 'a', content: CART_TS });
      messages.push(call('b', 'read_file', { filePath: 'src/math.ts' }), { role: 'tool', tool_call_id: 'b', content: UTIL_TS });
      return parseRequest({ model: 'gpt-4o', messages });
    };
    const receipt = body(CART_TS, 'export function formatReceipt');
    const withHistory = await setup({ conversationMentions: true }).pipeline.run(build());
    assert.ok(toolText(withHistory.request, 5).includes(receipt));
    const latestOnly = await setup().pipeline.run(build());
    assert.ok(!toolText(latestOnly.request, 5).includes(receipt));
  });

  it('outlines whole files when the latest turn names no target', async () => {
    const { pipeline, stash } = setup({ taskMentions: false });
    const result = await pipeline.run(conversation('please help', [{ id: 'a', path: 'src/cart.ts', text: CART_TS }, { id: 'b', path: 'src/math.ts', text: UTIL_TS }]));
    const outlined = toolText(result.request, 3);
    assert.equal(findMarkers(outlined).length, 6);
    assert.match(decisionOf(result.decisions).reason, /no target in the latest turn: whole files outlined/);
    assert.equal(await stash.expandText(outlined), CART_TS);
  });

  it('targets by stack-trace frame and keeps line-number prefixes on kept lines', async () => {
    const python = ['import os', '', 'def load(path):', '    with open(path) as handle:', '        text = handle.read()', '    data = parse(text)', '    check(data)', '    return data', '', 'def parse(text):', '    rows = text.split(",")', '    rows = [row.strip() for row in rows]', '    rows = [row for row in rows if row]', '    return rows', '', 'def check(data):', '    if not data:', '        raise ValueError("empty")', '    if len(data) > 100:', '        raise ValueError("long")', '    return True', '', 'def unrelated():', '    a = 1', '    b = 2', '    c = 3', '    d = 4', '    return a + b + c + d'];
    const numbered = python.map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n');
    const messages = [
      { role: 'system', content: 'agent' },
      { role: 'user', content: 'The loader crashes.' },
      { role: 'assistant', content: 'THOUGHT: read it\n\n```bash\ncat -n pkg/loader.py\n```' },
      { role: 'user', content: `<returncode>0</returncode>\n<output>\n${numbered}\n</output>` },
      { role: 'assistant', content: 'THOUGHT: run it\n\n```bash\npython repro.py\n```' },
      { role: 'user', content: '<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File "/testbed/pkg/loader.py", line 12, in parse\n    rows = [row.strip() for row in rows]\nAttributeError: boom\n</output>' },
    ];
    const { pipeline, stash } = setup({ minLines: 10, taskMentions: false, calleeDepth: 0 });
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages }));
    const outlined = toolText(result.request, 3);
    const lines = numbered.split('\n');
    assert.ok(outlined.includes(lines.slice(9, 14).join('\n')), 'parse() is kept, prefixes and all');
    assert.ok(!outlined.includes(lines[25]!), 'unrelated() is elided');
    assert.ok(outlined.includes(lines[2]!) && outlined.includes(lines[22]!), 'signatures keep their numbers');
    assert.equal(await stash.expandText(outlined), numbered);
  });

  it('targets the definitions a sed range read of the latest turn shows, and those a diff touches', async () => {
    const python = Array.from({ length: 6 }, (_, index) => [`def step_${index}(value):`, '    value = value + 1', '    value = value * 2', '    value = value - 3', '    value = value / 4', '    return value', '']).flat();
    const messages = [
      { role: 'system', content: 'agent' },
      { role: 'user', content: 'Fix the pipeline.' },
      { role: 'assistant', content: '```bash\ncat steps.py\n```' },
      { role: 'user', content: `<returncode>0</returncode>\n<output>\n${python.join('\n')}\n</output>` },
      { role: 'assistant', content: "```bash\nnl -ba steps.py | sed -n '8,13p'\n```" },
      { role: 'user', content: `<returncode>0</returncode>\n<output>\n${python.slice(7, 13).map((line, index) => `${String(index + 8).padStart(6)}\t${line}`).join('\n')}\n</output>\n\nand the diff:\n--- a/steps.py\n+++ b/steps.py\n@@ -30,2 +30,2 @@\n-    value = value / 4\n+    value = value / 5` },
    ];
    const { pipeline } = setup({ minLines: 10, taskMentions: false, calleeDepth: 0 });
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages }));
    const outlined = toolText(result.request, 3);
    const kept = [0, 1, 2, 3, 4, 5].filter((index) => outlined.includes(python.slice(index * 7, index * 7 + 6).join('\n')));
    assert.deepEqual(kept, [1, 4]);
  });

  it('never changes the fresh input nor messages decided on earlier turns (prefix stable turn after turn)', async () => {
    const { pipeline, stash } = setup({ taskMentions: false });
    const turn1 = conversation('help', [{ id: 'a', path: 'src/cart.ts', text: CART_TS }]);
    const first = await pipeline.run(turn1);
    assert.equal(toolText(first.request, 3), CART_TS, 'a fresh read is left intact');
    const withNext = (extra: unknown[]): ChatRequest => conversation('help', [{ id: 'a', path: 'src/cart.ts', text: CART_TS }, { id: 'b', path: 'src/math.ts', text: UTIL_TS }], extra);
    const second = await pipeline.run(withNext([]));
    const decided = toolText(second.request, 3);
    assert.notEqual(decided, CART_TS);
    // The next turn talks about formatReceipt: the earlier decision stands, byte for byte.
    const third = await pipeline.run(withNext([{ role: 'assistant', content: 'Now formatReceipt() and parseCart()' }, { role: 'user', content: 'go on' }]));
    assert.equal(toolText(third.request, 3), decided);
    assert.equal(third.replayedMessages, 5);
    assert.equal(await stash.expandText(decided), CART_TS);
  });

  it('is deterministic: the same request and configuration give the same bytes', async () => {
    const request = conversation('totalPrice() is wrong', [{ id: 'a', path: 'src/cart.ts', text: CART_TS }, { id: 'b', path: 'src/math.ts', text: UTIL_TS }]);
    const one = await setup().pipeline.run(request);
    const two = await setup().pipeline.run(request);
    assert.deepEqual(one.request, two.request);
  });

  it('passes a source through when its grammar is missing, and says so in the decision', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-code-graph-'));
    const locator = { wasmPath: (file: string): string => (file === RUNTIME_FILE ? assets.wasmPath(file) : path.join(directory, file)) };
    const { pipeline } = setup({}, locator);
    const go = ['package cart', '', ...Array.from({ length: 8 }, (_, index) => [`func Step${index}(value int) int {`, '\tvalue++', '\tvalue *= 2', '\tvalue -= 3', '\treturn value', '}', '']).flat()].join('\n');
    const request = conversation('help', [{ id: 'a', path: 'cart.go', text: go }, { id: 'b', path: 'src/math.ts', text: UTIL_TS }]);
    const result = await pipeline.run(request);
    assert.equal(result.request, request);
    const decision = decisionOf(result.decisions);
    assert.equal(decision.status, 'unchanged');
    assert.equal(decision.reason, `Herald: grammar tree-sitter-go.wasm not found at ${path.join(directory, 'tree-sitter-go.wasm')}; the source passed through untouched`);
    assert.equal(decision.details?.grammarFailed, 1);
  });

  it('passes through a source that does not parse, and a language without a grammar', async () => {
    const broken = Array.from({ length: 50 }, (_, index) => `function f${index}( {{ return ;;; ))) [[`).join('\n');
    const lua = Array.from({ length: 50 }, (_, index) => `local function f${index}()\n  return ${index}\nend`).join('\n');
    const { pipeline } = setup();
    const request = conversation('help', [{ id: 'a', path: 'broken.ts', text: broken }, { id: 'b', path: 'game.lua', text: lua }, { id: 'c', path: 'src/math.ts', text: UTIL_TS }]);
    const result = await pipeline.run(request);
    assert.equal(result.request, request);
    const decision = decisionOf(result.decisions);
    assert.match(decision.reason, /% of the typescript lines did not parse; the source passed through untouched/);
    assert.equal(decision.details?.parseFailed, 1);
    assert.equal(decision.details?.unknownLanguage, 1);
  });

  it('leaves output of commands that are not file reads alone, however much code it quotes', async () => {
    const failure = ['=================================== FAILURES ===================================', '    def test_total(self):', '        cart = Cart()', '>       assert cart.total() == 3', 'E       AssertionError: assert 2 == 3', ...Array.from({ length: 50 }, (_, index) => `    def helper_${index}(self):\n        value = ${index}\n        value += 1\n        value *= 2\n        value -= 3\n        return value`)].join('\n');
    const messages = [
      { role: 'system', content: 'agent' },
      { role: 'user', content: 'Fix the cart.' },
      { role: 'assistant', content: '```bash\npytest tests/test_cart.py\n```' },
      { role: 'user', content: `<returncode>1</returncode>\n<output>\n${failure}\n</output>` },
      { role: 'assistant', content: '```bash\nls\n```' },
      { role: 'user', content: '<returncode>0</returncode>\n<output>\ncart.py\n</output>' },
    ];
    const { pipeline } = setup();
    const request = parseRequest({ model: 'gpt-4o', messages });
    const result = await pipeline.run(request);
    assert.equal(result.request, request);
    assert.equal(decisionOf(result.decisions).reason, 'no source file read is becoming history');
  });

  it('rejects an invalid option value (fail-open: the request goes on unchanged)', async () => {
    const { pipeline } = setup({ calleeDepth: -1 });
    const request = conversation('totalPrice()', [{ id: 'a', path: 'src/cart.ts', text: CART_TS }, { id: 'b', path: 'src/math.ts', text: UTIL_TS }]);
    const result = await pipeline.run(request);
    assert.equal(result.request, request);
    assert.equal(decisionOf(result.decisions).status, 'failed');
    assert.throws(() => new Pipeline([createCodeGraph({ assets })], { options: { code_graph: { depth: 2 } } }, { stash: new Stash({ store: new MemoryBlobStore() }) }), /unknown option "depth"/);
  });
});
