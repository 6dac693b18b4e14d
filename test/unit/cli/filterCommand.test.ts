import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runHerald } from '../../support/cliRun';

const run = runHerald;

/** A loopback OpenAI-compatible server that answers as a judge would and records each request body. */
async function fakeJudgeServer(answer: (body: { messages: { role: string; content: string }[] }) => string): Promise<{ url: string; bodies: unknown[]; close: () => void }> {
  const bodies: unknown[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => { text += chunk; });
    request.on('end', () => {
      const body = JSON.parse(text) as { messages: { role: string; content: string }[] };
      bodies.push({ url: request.url, authorization: request.headers.authorization, body });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: answer(body) } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, bodies, close: () => server.close() };
}

const REQUEST = {
  question: 'Which test failed and why?',
  agent: 'ci-helper',
  candidates: [
    { id: 'tests', content: 'FAIL src/cart.test.ts\n  ✕ applies coupon (12 ms)\nTests: 1 failed, 40 passed' },
    { id: 'readme', content: 'Shop is a small web store written in TypeScript.' },
  ],
};

describe('herald filter', () => {
  const thresholds = (): string => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-filter-')), 'thresholds.json');

  it('prints the kept items and the report as JSON, scored by words and the shipped model', async () => {
    const result = await run(['filter', '--thresholds', thresholds()], JSON.stringify(REQUEST));
    assert.equal(result.code, 0, result.stderr);
    const output = JSON.parse(result.stdout) as { kept: { id: string }[]; report: { scoring: string; scorer: string }; items: { reason: string }[] };
    assert.deepEqual(output.kept.map((item) => item.id), ['tests']);
    assert.equal(output.report.scoring, 'fused');
    assert.match(output.report.scorer, /model herald-retrieval/);
    assert.match(output.items[0]!.reason, /meaning similarity \d\.\d\d \(herald-retrieval/);
    assert.equal(result.stderr, '', 'the shipped model loaded without a warning');
  });

  it('scores by words only with --lexical', async () => {
    const result = await run(['filter', '--lexical', '--thresholds', thresholds()], JSON.stringify(REQUEST));
    assert.equal(result.code, 0, result.stderr);
    const output = JSON.parse(result.stdout) as { kept: { id: string }[]; report: { scoring: string; scorer: string } };
    assert.deepEqual(output.kept.map((item) => item.id), ['tests']);
    assert.equal(output.report.scoring, 'lexical');
    assert.doesNotMatch(output.report.scorer, /model/);
  });

  it('answers a bad field with a 400-style JSON error naming it and exit 2', async () => {
    const result = await run(['filter', '--thresholds', thresholds()], JSON.stringify({ question: 'q', candidates: [{ id: 'a' }] }));
    assert.equal(result.code, 2);
    const output = JSON.parse(result.stdout) as { error: { code: string; status: number; field: string } };
    assert.deepEqual([output.error.code, output.error.status, output.error.field], ['invalid_request', 400, 'candidates[0].content']);
  });

  it('uses a judge endpoint, then runs the quality check that moves the agent threshold', async () => {
    const server = await fakeJudgeServer((body) => {
      const prompt = body.messages.at(-1)!.content;
      if (prompt.includes('<candidate')) return JSON.stringify([{ id: 'tests', score: 3, reason: 'lists the failure' }, { id: 'readme', score: 0.2, reason: 'unrelated' }]);
      return 'NOT_ENOUGH';
    });
    try {
      const file = thresholds();
      process.env.HERALD_JUDGE_API_KEY = 'test-key';
      const result = await run(['filter', '--thresholds', file, '--judge-url', server.url, '--judge-model', 'judge-1'], JSON.stringify(REQUEST));
      delete process.env.HERALD_JUDGE_API_KEY;
      assert.equal(result.code, 0, result.stderr);
      const output = JSON.parse(result.stdout) as { report: { scoring: string; scorer: string }; items: { score: number }[] };
      assert.equal(output.report.scoring, 'judge');
      assert.equal(output.items[0]!.score, 3);
      assert.equal(server.bodies.length, 2, 'one scoring call and one quality check');
      const first = server.bodies[0] as { url: string; authorization: string; body: { model: string } };
      assert.equal(first.url, '/v1/chat/completions');
      assert.equal(first.authorization, 'Bearer test-key');
      assert.equal(first.body.model, 'judge-1');
      const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { offsets: Record<string, number> };
      assert.ok(saved.offsets['ci-helper']! < 0);
    } finally {
      server.close();
    }
  });

  it('fails with scoring_unavailable (503) and exit 3 when the judge cannot be reached', async () => {
    const server = await fakeJudgeServer(() => 'unused');
    server.close();
    const result = await run(['filter', '--thresholds', thresholds(), '--judge-url', server.url, '--judge-model', 'judge-1'], JSON.stringify(REQUEST));
    assert.equal(result.code, 3);
    const output = JSON.parse(result.stdout) as { error: { code: string; status: number } };
    assert.deepEqual([output.error.code, output.error.status], ['scoring_unavailable', 503]);
  });

  it('refuses a judge URL without a model', async () => {
    const result = await run(['filter', '--judge-url', 'http://127.0.0.1:1/v1'], JSON.stringify(REQUEST));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--judge-url needs --judge-model/);
  });
});
