import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runHerald } from '../../support/cliRun';
import { sampleRequest } from '../../../src/cli/sample';

const run = runHerald;

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cli-'));
}

/** A request whose history holds a long log, elided by a strategy when one is registered. */
const REQUEST = JSON.stringify(sampleRequest());

describe('herald CLI', () => {
  it('optimize prints a valid request in the same format and writes decisions', async () => {
    const stash = tempDir();
    const decisions = path.join(stash, 'decisions.json');
    const result = await run(['optimize', '--stash', stash, '--decisions', decisions], REQUEST);
    assert.equal(result.code, 0, result.stderr);
    const optimized = JSON.parse(result.stdout) as { messages: unknown[]; model: string };
    assert.equal(optimized.model, 'gpt-4o');
    assert.equal(optimized.messages.length, (sampleRequest().messages as unknown[]).length);
    const report = JSON.parse(fs.readFileSync(decisions, 'utf8')) as { tokensBefore: number; tokensAfter: number; decisions: { strategy: string }[] };
    assert.ok(report.tokensBefore > 20_000);
    assert.ok(report.tokensAfter <= report.tokensBefore);
    // Decisions are metadata: no prompt text in them.
    assert.ok(!fs.readFileSync(decisions, 'utf8').includes('TaxMismatchError'));
  });

  it('optimize --rewrite-share sets how much a rewrite of a cached output must remove (1: none is worth it)', async () => {
    const tokensAfter = async (extra: string[]): Promise<number> => {
      const stash = tempDir();
      const decisions = path.join(stash, 'decisions.json');
      const result = await run(['optimize', '--stash', stash, '--decisions', decisions, ...extra], REQUEST);
      assert.equal(result.code, 0, result.stderr);
      return (JSON.parse(fs.readFileSync(decisions, 'utf8')) as { tokensAfter: number }).tokensAfter;
    };
    const byDefault = await tokensAfter([]);
    const never = await tokensAfter(['--rewrite-share', '1']);
    assert.ok(never > byDefault * 2, `${never} tokens with --rewrite-share 1, ${byDefault} by default`);
  });

  it('expand restores the original request from an optimized one, and retrieve prints originals', async () => {
    const stash = tempDir();
    const decisions = path.join(stash, 'decisions.json');
    const optimized = await run(['optimize', '--stash', stash, '--decisions', decisions], REQUEST);
    const expanded = await run(['expand', '--stash', stash], optimized.stdout);
    assert.equal(expanded.code, 0, expanded.stderr);
    // Every message comes back exactly; tools may be reordered and their descriptions tidied.
    assert.deepEqual((JSON.parse(expanded.stdout) as { messages: unknown }).messages, (JSON.parse(REQUEST) as { messages: unknown }).messages);
    const report = JSON.parse(fs.readFileSync(decisions, 'utf8')) as { decisions: { handles: string[] }[] };
    for (const handle of report.decisions.flatMap((decision) => decision.handles)) {
      const retrieved = await run(['retrieve', handle, '--stash', stash]);
      assert.equal(retrieved.code, 0, retrieved.stderr);
      assert.ok(REQUEST.includes(JSON.stringify(retrieved.stdout).slice(1, -1).slice(0, 200)));
    }
  });

  it('optimize reads Anthropic requests and keeps them Anthropic', async () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] };
    const result = await run(['optimize', '--stash', tempDir()], JSON.stringify(body));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), body);
  });

  it('replays the same conversation across calls byte for byte (memo kept in the stash folder)', async () => {
    const stash = tempDir();
    const body = sampleRequest() as { messages: unknown[] };
    const first = JSON.parse((await run(['optimize', '--stash', stash], JSON.stringify({ ...body, messages: body.messages.slice(0, 12) }))).stdout) as { messages: unknown[] };
    const second = JSON.parse((await run(['optimize', '--stash', stash], JSON.stringify(body))).stdout) as { messages: unknown[] };
    assert.deepEqual(second.messages.slice(0, 11), first.messages.slice(0, 11));
  });

  const errors: [string, string[], string, RegExp, number][] = [
    ['invalid JSON', ['optimize'], '{"messages": [', /stdin is not valid JSON/, 2],
    ['empty input', ['optimize'], '', /no input on stdin/, 2],
    ['unknown format', ['optimize', '--format', 'gemini'], REQUEST, /unknown format "gemini"/, 2],
    ['not a chat request', ['optimize'], '{"prompt":"hi"}', /"messages" array/, 2],
    ['malformed message', ['optimize', '--format', 'openai'], '{"messages":[{"content":"x"}]}', /messages\[0\]\.role/, 2],
    ['unknown strategy', ['optimize', '--disable', 'context_dedupe,warp_drive'], REQUEST, /unknown strategy id "warp_drive"/, 2],
    ['bad window', ['optimize', '--window-tokens', 'lots'], REQUEST, /--window-tokens takes a positive whole number/, 2],
    ['unknown option', ['optimize', '--fast'], REQUEST, /unknown option --fast/, 2],
    ['bad rewrite share', ['optimize', '--rewrite-share', '1.5'], REQUEST, /--rewrite-share takes a number from 0 to 1/, 2],
    ['malformed handle', ['retrieve', 'abc'], '', /not a Herald handle/, 2],
    ['unknown handle', ['retrieve', 'hr_aaaaaaaaaaaaaaaa'], '', /no original for hr_aaaaaaaaaaaaaaaa/, 1],
    ['unknown command', ['frobnicate'], '', /unknown command "frobnicate"/, 2],
  ];
  for (const [name, args, stdin, message, code] of errors) {
    it(`fails with one clear line and writes nothing on ${name}`, async () => {
      const stash = tempDir();
      const decisions = path.join(stash, 'decisions.json');
      const withStash = args[0] === 'optimize' || args[0] === 'retrieve' ? [...args, '--stash', stash, ...(args[0] === 'optimize' ? ['--decisions', decisions] : [])] : args;
      const result = await run(withStash, stdin);
      assert.equal(result.code, code);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.trim().split('\n').length, 1);
      assert.equal(result.stdout, '');
      assert.ok(!fs.existsSync(decisions));
    });
  }

  it('the built CLI runs the demo and reports a lossless result', function () {
    const cli = path.resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');
    if (!fs.existsSync(cli)) this.skip();
    const output = execFileSync(process.execPath, [cli, 'demo'], { encoding: 'utf8' });
    assert.match(output, /Tokens: \d+ → \d+/);
    assert.match(output, /Lossless: yes/);
    const bad = spawnSync(process.execPath, [cli, 'optimize', '--format', 'nope'], { input: REQUEST, encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /unknown format/);
  });
});
