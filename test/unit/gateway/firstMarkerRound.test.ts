/** `herald serve` prices a session's first marker as its retrieve round (the default): a short session's first digest that cannot repay it goes out whole, and the record says why; `--no-first-marker-round` digests it. */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { anthropicMessage } from './providerAnswers';
import type { CliIo } from '../../../src/cli/io';
import { startServe } from '../../../src/cli/serveCommand';
import { decisionsFileLines, startHarness, type Harness } from './harness';

const LOG = Array.from({ length: 120 }, (_, index) => (index === 60 ? "src/app.ts(60,7): error TS2322: Type 'string' is not assignable to type 'number'." : `[${String(index).padStart(5, '0')}] compiling module_${index % 37}.ts ... ok`)).join('\n');
/** An agent's tools: most of each request, as Claude Code's are. */
const TOOLS = [
  { name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
  ...Array.from({ length: 30 }, (_, index) => ({ name: `tool_${index}`, description: Array.from({ length: 12 }, (__, line) => `Use tool_${index} to inspect resource kind ${line} of the workspace; pass the path and an optional filter expression.`).join(' '), input_schema: { type: 'object', properties: { path: { type: 'string' } } } })),
];
const BODY = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: 'You are a coding agent.',
  tools: TOOLS,
  messages: [
    { role: 'user', content: 'Which modules does the build compile?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat build.log' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: LOG }] },
  ],
};

async function forwarded(args: readonly string[]): Promise<{ log: string; actions: string[] }> {
  const harness: Harness = await startHarness({ kind: 'json', body: anthropicMessage({ blocks: [{ type: 'text', text: 'A type error.' }] }) }, args);
  try {
    const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test' }, body: JSON.stringify(BODY) });
    assert.equal(response.status, 200);
    await response.text();
    const sent = harness.upstream.bodies('/v1/messages')[0] as { messages: { content: unknown }[] };
    await harness.serve.stop();
    const actions = decisionsFileLines(harness).flatMap((line) => ((line.decisions ?? []) as { action: string }[]).map((decision) => decision.action));
    return { log: JSON.stringify(sent.messages[2]!.content), actions };
  } finally {
    await harness.stop();
  }
}

describe('herald serve: a session\'s first marker priced as its retrieve round', () => {
  it('sends a short session\'s first digest whole when it cannot repay the round, where --no-first-marker-round digests it', async () => {
    const priced = await forwarded(['--first-marker-round']);
    assert.ok(!priced.log.includes('retrieve hr_') && priced.log.includes('[00119] compiling'), 'by default the log goes out whole');
    assert.ok(priced.actions.includes('first-markers-deferred'), `the record says why (${priced.actions.join(', ')})`);
    const usual = await forwarded(['--no-first-marker-round']);
    assert.ok(usual.log.includes('retrieve hr_'), 'without the round priced the log is digested');
  });

  it('is on by default, says so when it starts, and refuses both flags at once', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-first-marker-'));
    let output = '';
    const io: CliIo = { readStdin: async () => '', stdout: (text) => { output += text; }, stderr: (text) => { output += text; } };
    try {
      const serve = await startServe(['--port', '0', '--workers', '0', '--stash', path.join(folder, 'stash')], io);
      await serve.stop();
      assert.match(output, /first marker priced as the retrieve round it may bring \(--no-first-marker-round/);
      await assert.rejects(startServe(['--port', '0', '--workers', '0', '--stash', path.join(folder, 'stash'), '--first-marker-round', '--no-first-marker-round'], io), /not both/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
