import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeTinyEmbeddingModel } from '../../../scripts/makeTinyEmbeddingModel';
import { parseRequest, type ChatRequest } from '../chat';
import { partText } from '../chat/types';
import { Pipeline } from '../pipeline';
import { RecordingLogger } from '../ports';
import { MemoryBlobStore, Stash } from '../stash';
import { findMarkers } from '../stash/marker';
import { TokenCounter } from '../tokens';
import { isErrorLine } from '../relevance/diagnosticLines';
import { describeWithData, loadTrajectory, sharedPath, trajectoryNames, turnRequests } from '../../../test/support/sharedData';
import { replay } from '../../../test/support/replay';
import { queryForLatestTurn } from '../relevance/turnQuery';
import { createRelevanceFilter } from './relevanceFilter';
import { createStrategies } from './index';

const tokens = new TokenCounter();

function setup(options: Record<string, unknown> = {}): { pipeline: Pipeline; stash: Stash } {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const pipeline = new Pipeline([createRelevanceFilter()], { enabled: { relevance_filter: true }, options: { relevance_filter: options } }, { stash, tokens });
  return { pipeline, stash };
}

function logLines(system: string): string[] {
  return fs.readFileSync(sharedPath('logs', system, `${system}_2k.log`), 'utf8').split('\n').filter((line) => line.length > 0);
}

function textOf(request: ChatRequest, index: number): string {
  return request.messages[index]!.parts.map(partText).join('\n');
}

const withData = describeWithData;

withData('relevance_filter', () => {
  it('filters a real log pasted under a question, keeps the question and every error line, and expands back', async () => {
    const log = logLines('Hadoop').slice(0, 800).join('\n');
    const question = 'Why did the MapReduce job fail? What went wrong with the connection to the datanode?';
    const content = `${question}\n\n\`\`\`\n${log}\n\`\`\``;
    const request = parseRequest({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You help with logs.' },
        { role: 'user', content: 'I will paste a log from our cluster.' },
        { role: 'assistant', content: 'Go ahead.' },
        { role: 'user', content },
      ],
    });
    const { pipeline, stash } = setup();
    const result = await pipeline.run(request);
    const decision = result.decisions[0]!;
    assert.equal(decision.status, 'applied', decision.reason);
    // The shipped retrieval model ranks by default, and the decision says so.
    assert.match(decision.reason, /by fused relevance/);
    assert.match(decision.reason, /signals: lexical \+ model \(herald-retrieval [\d.]+, shipped with Herald/);
    const after = textOf(result.request, 3);
    assert.ok(after.startsWith(question), 'the user\'s own words come first, untouched');
    assert.ok(result.tokensAfter < result.tokensBefore * 0.75, `saved too little: ${result.tokensBefore} → ${result.tokensAfter}`);
    const keptLines = new Set(after.split('\n'));
    const errors = log.split('\n').filter(isErrorLine);
    assert.ok(errors.length > 0);
    assert.deepEqual(errors.filter((line) => !keptLines.has(line)), [], 'every error line is kept');
    assert.ok(findMarkers(after).length > 0);
    assert.equal(await stash.expandText(after), content);
  });

  it('ranks pasted bulk against the words it was pasted under, so its form repeats when it becomes history', async () => {
    const log = logLines('Linux').slice(0, 600).join('\n');
    const pasted = `Which sshd authentication failures came from which rhost?\n\n\`\`\`\n${log}\n\`\`\``;
    const turn = [
      { role: 'system', content: 'You help with logs.' },
      { role: 'user', content: 'I will paste a log from a server.' },
      { role: 'assistant', content: 'Go ahead.' },
      { role: 'user', content: pasted },
    ];
    const { pipeline, stash } = setup();
    const first = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: turn }));
    assert.equal(first.decisions[0]!.status, 'applied', first.decisions[0]!.reason);
    const next = [...turn, { role: 'assistant', content: 'Most failures come from one address.' }, { role: 'user', content: 'Thanks. Now summarize the cron sessions for root.' }];
    const second = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: next }));
    assert.equal(textOf(second.request, 3), textOf(first.request, 3), 'the filtered paste is byte-identical on the next turn');
    assert.equal(await stash.expandText(textOf(second.request, 3)), pasted);
  });

  it('leaves a history tool result alone by default (historyOutputs off, by measurement)', async () => {
    const log = logLines('Zookeeper').join('\n');
    const messages = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Find out why the ZooKeeper quorum lost its leader election.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat zookeeper.log"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: log },
      { role: 'assistant', content: 'The log shows connection problems between peers.' },
      { role: 'user', content: 'Which notification or leader election timeouts happened?' },
    ];
    const { pipeline } = setup();
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages }));
    assert.equal(result.decisions[0]!.status, 'unchanged');
    assert.equal(textOf(result.request, 3), log);
  });

  it('cuts a paste mixing logfmt logs, Prometheus samples and spans unit by unit, the question typed right under it untouched', async () => {
    // Real Hadoop lines as logfmt, a latency series with one spike, spans: merged into one block.
    const logs = logLines('Hadoop').slice(0, 300).map((line) => {
      const match = /^(\S+) (\S+),(\d+) (\w+) \[([^\]]*)\] ([\w.$]+): (.*)$/.exec(line.replace(/\r$/, ''));
      return match === null ? line : `ts=${match[1]}T${match[2]}.${match[3]}Z level=${match[4]!.toLowerCase()} thread=${JSON.stringify(match[5])} logger=${match[6]} msg=${JSON.stringify(match[7])}`;
    });
    const samples = Array.from({ length: 120 }, (_, index) => `http_request_duration_seconds{service="am",quantile="0.99"} ${index === 27 ? '4.425' : (0.09 + (index % 5) / 100).toFixed(3)} ${1445191200000 + index * 15_000}`);
    const spans = Array.from({ length: 100 }, (_, index) => `{"trace_id":"${(index * 2654435761 >>> 0).toString(16)}","span_id":"${index}","name":"proxy.connect","service":"chrome.exe","start":"2015-10-18T18:0${Math.floor(index / 20)}:00Z","duration_ms":${index === 41 ? 95000 : 400 + index * 10}}`);
    const paste = ['# HELP http_request_duration_seconds Request latency.', '# TYPE http_request_duration_seconds summary', ...samples, ...logs, ...spans].join('\n');
    const question = 'Find what caused the latency spike at 18:05; the logs, metrics and traces are above.';
    const content = `${paste}\n${question}`;
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const pipeline = new Pipeline(createStrategies(), {}, { stash, tokens });
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: [{ role: 'system', content: 'Answer briefly.' }, { role: 'user', content }] }));
    const filter = result.decisions.find((decision) => decision.strategy === 'relevance_filter')!;
    assert.equal(filter.status, 'applied', filter.reason);
    assert.equal(result.decisions.find((decision) => decision.strategy === 'command_digest')!.status, 'unchanged', 'a mixed paste is no one format\'s digest');
    const text = textOf(result.request, 1);
    assert.ok(text.endsWith(`\n${question}`), 'the question typed right under the paste stays as it was');
    assert.ok(text.length < content.length / 4, `${text.length} of ${content.length}`);
    assert.ok(text.includes('# HELP http_request_duration_seconds Request latency.'), 'the header of a family a sample is kept from');
    assert.ok(text.includes(samples[27]!), 'the spike');
    assert.ok(text.includes(spans[41]!), 'the slowest span');
    for (const line of logs.filter((entry) => / level=(?:error|fatal) /.test(entry))) {
      assert.ok(text.includes(line.split(' msg=')[1]!.slice(0, 40)), `error event kept: ${line}`);
    }
    assert.match(text, /\[… \d+ lines not shown: [^\]]+ …\]/);
    assert.equal(await stash.expandText(text), content);
  });

  it('filters a pasted list item by item: the items that answer stay, each run of the others is its headers and one marker', async () => {
    const topics = ['billing refunds are issued within five days', 'the cafeteria opens at eight', 'parking permits renew in March', 'refunds for annual plans are prorated by month', 'the office closes on public holidays', 'printers are on the third floor'];
    const items = Array.from({ length: 12 }, (_, index) => `[${index + 1}] (document ${100 + index}) ${topics[index % topics.length]}\n${'Background text about the company that repeats a little. '.repeat(8)}`);
    const list = items.join('\n\n');
    const content = `Question: how are refunds for annual plans calculated?\n\nRetrieved documents:\n\n${list}`;
    const { pipeline, stash } = setup();
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content }] }));
    assert.equal(result.decisions[0]!.status, 'applied', result.decisions[0]!.reason);
    const text = textOf(result.request, 0);
    assert.ok(text.startsWith('Question: how are refunds for annual plans calculated?\n\nRetrieved documents:\n\n'), 'the user\'s words stay as they were');
    assert.ok(text.includes('refunds for annual plans are prorated by month'));
    // A dropped item's header stays (what an answer cites), its body does not.
    assert.ok(text.includes('[2] (document 101) the cafeteria opens at eight\n'));
    assert.ok(!text.includes('the cafeteria opens at eight\nBackground'));
    assert.ok(items.filter((item) => text.includes(item)).length < items.length / 2, 'most items are cut to their header');
    assert.ok(text.length < content.length * 0.6, `${text.length} of ${content.length}`);
    assert.match(text, /\[herald: \d+ pasted item\(s\) elided as off-topic for the question \(items \d+–\d+ of 12\) · retrieve hr_/);
    assert.equal(await stash.expandText(text), content);
  });

  it('keeps the title under a dropped item\'s label line (id, path, similarity), not its body', async () => {
    const titles = ['monthly refunds for annual plans are prorated', 'the cafeteria opens at eight every weekday', 'parking permits renew every March for staff', 'printers are found on the third floor', 'the office closes on public holidays', 'visitors sign in at the front desk'];
    const items = Array.from({ length: 12 }, (_, index) => `[${index + 1}] kb-${1000 + index}#0 · kb/handbook/page-${index}.md · similarity 0.${90 - index}\n${titles[index % titles.length]}\n${'Background text about the company that repeats a little. '.repeat(8)}`);
    const content = `How are refunds for annual plans calculated? Cite the chunk id.\n\nTop chunks:\n\n${items.join('\n\n')}`;
    const { pipeline, stash } = setup();
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content }] }));
    assert.equal(result.decisions[0]!.status, 'applied', result.decisions[0]!.reason);
    const text = textOf(result.request, 0);
    // Dropped: the label and its title stay together, the body goes.
    assert.ok(text.includes('[2] kb-1001#0 · kb/handbook/page-1.md · similarity 0.89\nthe cafeteria opens at eight every weekday\n'), text.slice(0, 800));
    assert.ok(!text.includes('the cafeteria opens at eight every weekday\nBackground'));
    assert.ok(text.length < content.length * 0.6, `${text.length} of ${content.length}`);
    assert.equal(await stash.expandText(text), content);
  });

  it('outlines pasted source files against the question: what it names stays in full, other bodies become markers', async () => {
    const body = (name: string, lines: number): string => [`def ${name}(order):`, ...Array.from({ length: lines }, (_, index) => `    step_${index} = order.amount * ${index + 1}  # ${name} work`), `    return step_${lines - 1}`].join('\n');
    const billing = [body('compute_total', 8), '', body('format_receipt', 12), '', body('send_receipt', 12), '', body('archive_order', 12)].join('\n');
    const shipping = [body('pack_order', 12), '', body('label_order', 12), '', body('ship_order', 12), '', body('track_order', 12)].join('\n');
    const content = `Why does compute_total round the amount wrong?\n\nbilling/totals.py:\n\`\`\`python\n${billing}\n\`\`\`\n\nshipping/orders.py:\n\`\`\`python\n${shipping}\n\`\`\``;
    const { pipeline, stash } = setup();
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content }] }));
    const text = textOf(result.request, 0);
    assert.ok(text.includes(body('compute_total', 8)), 'the function the question names stays whole');
    for (const name of ['format_receipt', 'pack_order', 'track_order']) {
      assert.ok(text.includes(`def ${name}(order):`), `${name}'s signature stays`);
      assert.ok(!text.includes(`# ${name} work`), `${name}'s body is outlined`);
    }
    assert.ok(text.startsWith('Why does compute_total round the amount wrong?\n\nbilling/totals.py:\n```python\n'));
    assert.equal(await stash.expandText(text), content);
  });

  it('leaves a fresh tool result alone and filters it once it is history (historyOutputs on)', async () => {
    const log = logLines('Zookeeper').join('\n');
    const base = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Find out why the ZooKeeper quorum lost its leader election.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat zookeeper.log"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: log },
    ];
    const { pipeline, stash } = setup({ historyOutputs: true });
    const first = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: base }));
    assert.equal(first.decisions[0]!.status, 'unchanged');
    assert.equal(textOf(first.request, 3), log);

    const next = [...base, { role: 'assistant', content: 'The log shows connection problems between peers.' }, { role: 'user', content: 'Which notification or leader election timeouts happened?' }];
    const second = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: next }));
    assert.equal(second.decisions[0]!.status, 'applied', second.decisions[0]!.reason);
    const filtered = textOf(second.request, 3);
    // Cut well short of the whole (about half the lines stay: the log's repeated events each once and the lines nearest the question).
    assert.ok(filtered.length < log.length * 0.6, JSON.stringify(second.decisions[0]!.details));
    assert.ok(filtered.split('\n').some((line) => /Notification time out/.test(line)));
    assert.equal(await stash.expandText(filtered), log);
    assert.equal(textOf(second.request, 5), 'Which notification or leader election timeouts happened?');
  });

  it('keeps outputs flagged as failed whole, and leaves short outputs alone', async () => {
    const log = logLines('Apache').join('\n');
    const messages = [
      { role: 'user', content: 'Check the web server.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'cat error_log' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: log }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'bash', input: { command: 'uptime' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'up 3 days\nload 0.1' }] },
      { role: 'assistant', content: 'Looking at the worker environment.' },
      { role: 'user', content: 'Which workers failed to initialize?' },
    ];
    const { pipeline } = setup();
    const result = await pipeline.run(parseRequest({ model: 'claude-sonnet-4-5', max_tokens: 100, messages }));
    assert.equal(result.decisions[0]!.status, 'unchanged');
    assert.equal(result.tokensAfter, result.tokensBefore);
  });

  it('falls back to the task and the latest assistant text when the latest user message is pasted output', async () => {
    const trajectory = loadTrajectory(trajectoryNames()[0]!);
    const bodies = turnRequests(trajectory);
    const { pipeline } = setup();
    let sources = new Set<string>();
    for (const body of bodies.slice(0, 12)) {
      const result = await pipeline.run(parseRequest(body));
      const source = result.decisions[0]!.details?.querySource;
      if (typeof source === 'string') sources = new Set([...sources, source]);
    }
    assert.ok(!sources.has('user'), `observations were taken for questions: ${[...sources].join(', ')}`);
    // Every turn after the task itself, including observations that carry the agent framework's own warnings.
    assert.equal(queryForLatestTurn(parseRequest(bodies[0])).source, 'user');
    for (const body of bodies.slice(1)) assert.equal(queryForLatestTurn(parseRequest(body)).source, 'task-and-assistant');
  });

  it('keeps every replayed request prefix-stable and lossless on real trajectories', async () => {
    let turns = 0;
    let saved = 0;
    for (const name of trajectoryNames().slice(0, 1)) {
      const { pipeline, stash } = setup({ minLines: 20, minSavedTokens: 50, historyOutputs: true });
      const summary = await replay(pipeline, stash, turnRequests(loadTrajectory(name)), tokens);
      assert.equal(summary.prefixStableTurns, summary.turns.length, `${name}: prefix changed`);
      assert.equal(summary.losslessTurns, summary.turns.length, `${name}: not lossless`);
      turns += summary.turns.length;
      saved += summary.tokensBefore - summary.tokensAfter;
    }
    assert.ok(turns > 0);
    assert.ok(saved > 0, 'the filter saved nothing on a real trajectory');
  });

  it('ranks with the embedding model when one is configured, and says lexical when it cannot load', async () => {
    const modelDir = path.resolve(__dirname, '..', '..', '..', 'test', '.cache', 'filter-tiny-embedding');
    writeTinyEmbeddingModel(modelDir);
    const log = logLines('OpenSSH').slice(0, 300).join('\n');
    const messages = [
      { role: 'user', content: 'Audit the SSH server.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat auth.log"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: log },
      { role: 'assistant', content: 'I read the log.' },
      { role: 'user', content: 'Which users had invalid passwords from which addresses?' },
    ];
    const missing = path.join(modelDir, 'missing');
    const cases = [
      { environment: { embeddingModelDir: modelDir }, expected: /fused relevance.*signals: lexical \+ model \(herald-tiny-embedding/ },
      // A user model that cannot load falls back to the shipped model, and without that to lexical.
      { environment: { embeddingModelDir: missing }, expected: /the embedding model could not be loaded; signals: lexical \+ model \(herald-retrieval/ },
      { environment: { embeddingModelDir: missing, bundledModelDir: false as const }, expected: /the embedding model could not be loaded, lexical ranking only/ },
    ];
    for (const { environment, expected } of cases) {
      const directory = environment.embeddingModelDir;
      const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
      const logger = new RecordingLogger();
      // The first call starts the ONNX runtime; the time limit is not what this test is about.
      const pipeline = new Pipeline([createRelevanceFilter(environment)], { enabled: { relevance_filter: true }, options: { relevance_filter: { historyOutputs: true } }, timeLimitMs: 60_000 }, { stash, tokens, logger });
      const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages }));
      const decision = result.decisions[0]!;
      assert.equal(decision.status, 'applied', decision.reason);
      assert.match(decision.reason, expected);
      assert.equal(await stash.expandText(textOf(result.request, 2)), log);
      if (directory !== modelDir) assert.ok(logger.lines.some((line) => line.code === 'embedding-model-unavailable'));
    }
  });

  it('falls back to lexical ranking when the embedding model fails at run time', async () => {
    const modelDir = path.resolve(__dirname, '..', '..', '..', 'test', '.cache', 'failing-tiny-embedding');
    writeTinyEmbeddingModel(modelDir);
    // A token whose id is past the end of the embedding table: the model's Gather fails on it.
    const tokenizerFile = path.join(modelDir, 'tokenizer.json');
    const tokenizer = JSON.parse(fs.readFileSync(tokenizerFile, 'utf8')) as { model: { vocab: Record<string, number> } };
    tokenizer.model.vocab.zzbroken = 100_000;
    fs.writeFileSync(tokenizerFile, JSON.stringify(tokenizer));
    fs.rmSync(path.join(modelDir, 'herald-model.json'));
    fs.rmSync(path.join(modelDir, 'vocab.txt'));
    const log = [...logLines('OpenSSH').slice(0, 200), 'zzbroken'].join('\n');
    const messages = [
      { role: 'user', content: 'Audit the SSH server.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat auth.log"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: log },
      { role: 'assistant', content: 'I read the log.' },
      { role: 'user', content: 'Which users had invalid passwords from which addresses?' },
    ];
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const logger = new RecordingLogger();
    const pipeline = new Pipeline([createRelevanceFilter({ embeddingModelDir: modelDir })], { enabled: { relevance_filter: true }, options: { relevance_filter: { historyOutputs: true } }, timeLimitMs: 60_000 }, { stash, tokens, logger });
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages }));
    const decision = result.decisions[0]!;
    assert.equal(decision.status, 'applied', decision.reason);
    assert.match(decision.reason, /lexical \(the embedding model failed\)/);
    assert.ok(logger.lines.some((line) => line.code === 'embedding-failed'));
    assert.equal(await stash.expandText(textOf(result.request, 2)), log);
  });

  it('rejects an unknown option', () => {
    assert.throws(() => setup({ nope: 1 }), /unknown option "nope"/);
  });
});

// Pasted files need no shared data: these run in every clone.
describe('relevance_filter on pasted files', () => {
  it('splits pasted files by their names however they are written, drops the file the question is not about and leaves no fence open', async () => {
    const body = (name: string, lines: number): string => [`def ${name}(order):`, ...Array.from({ length: lines }, (_, index) => `    step_${index} = order.amount * ${index + 1}  # ${name} work`), `    return step_${lines - 1}`].join('\n');
    const files = [
      { path: 'billing/totals.py', code: [body('compute_total', 8), '', body('format_receipt', 12), '', body('send_receipt', 12)].join('\n') },
      { path: 'shipping/orders.py', code: [body('pack_order', 12), '', body('label_order', 12), '', body('ship_order', 12)].join('\n') },
      { path: 'shipping/carriers.py', code: [body('pick_carrier', 12), '', body('quote_carrier', 12), '', body('book_carrier', 12)].join('\n') },
    ];
    const layouts: Record<string, (path: string, code: string) => string> = {
      'fence info': (path, code) => `\`\`\`python ${path}\n${code}\n\`\`\``,
      'fence title': (path, code) => `\`\`\`python title="${path}"\n${code}\n\`\`\``,
      'first-line comment': (path, code) => `\`\`\`python\n# ${path}\n${code}\n\`\`\``,
      heading: (path, code) => `### ${path}\n\`\`\`python\n${code}\n\`\`\``,
      sentence: (path, code) => `Here is \`${path}\`:\n\`\`\`python\n${code}\n\`\`\``,
      'head banners, unfenced': (path, code) => `==> ${path} <==\n${code}`,
      'equals banners, unfenced': (path, code) => `=== ${path} ===\n${code}`,
    };
    for (const [name, layout] of Object.entries(layouts)) {
      const content = `The receipts come out wrong since the last deploy.\n\n${files.map((file) => layout(file.path, file.code)).join('\n\n')}\n\nWhy does compute_total round the amount wrong?`;
      const { pipeline, stash } = setup();
      const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content }] }));
      assert.equal(result.decisions[0]!.status, 'applied', `${name}: ${result.decisions[0]!.reason}`);
      const text = textOf(result.request, 0);
      assert.ok(text.includes(body('compute_total', 8)), `${name}: the function the question names stays whole`);
      assert.ok(text.includes('def format_receipt(order):') && !text.includes('# format_receipt work'), `${name}: the rest of its file is outlined`);
      assert.ok(!text.includes('# pick_carrier work'), `${name}: a file the question is not about goes`);
      assert.ok(text.includes('shipping/carriers.py'), `${name}: a dropped file keeps its path`);
      assert.ok(text.startsWith('The receipts come out wrong') && text.endsWith('Why does compute_total round the amount wrong?'), `${name}: the user's words stay`);
      assert.equal((text.match(/^```/gm) ?? []).length % 2, 0, `${name}: every fence left is closed`);
      assert.ok(text.length < content.length * 0.7, `${name}: ${text.length} of ${content.length}`);
      assert.equal(await stash.expandText(text), content, name);
    }
    // The user's closing words after the last file stay theirs when that file is dropped.
    const closing = 'Thanks a lot, this is urgent for the release tomorrow.';
    const content = `Why does compute_total round the amount wrong?\n\n${files.map((file) => layouts['head banners, unfenced']!(file.path, file.code)).join('\n\n')}\n\n${closing}`;
    const { pipeline } = setup();
    const text = textOf((await pipeline.run(parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content }] }))).request, 0);
    assert.ok(!text.includes('# pick_carrier work') && text.endsWith(`\n\n${closing}`), text.slice(-300));
  });
});
