import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseRequest, type ChatRequest } from '../chat';
import { partText, type Part } from '../chat/types';
import { Pipeline } from '../pipeline';
import { MemoryBlobStore, Stash, findMarkers } from '../stash';
import { TokenCounter } from '../tokens';
import { replay, type ReplaySummary } from '../../../test/support/replay';
import { loadTrajectory, skipWithoutData, type Trajectory, turnRequests } from '../../../test/support/sharedData';
import { deepFreeze } from '../../../test/unit/pipeline/fakes';
import { createHistoryTrim, HISTORY_TRIM_ID } from './historyTrim';
import { createStrategies } from './index';

/** A short run, a long-winded one (django-14034 reasons for thousands of words) and two in between. */
const TRAJECTORIES = ['astropy__astropy-12907', 'django__django-14034', 'django__django-13516', 'django__django-15104'];
const BASH_BLOCK = /```bash\n[\s\S]*?\n```/g;
/** Paths such as `astropy/modeling/separable.py`, found independently of the strategy's own name finder. */
const PATH = /[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+\.[A-Za-z]{1,5}\b/g;

function newStash(): Stash {
  return new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(3) });
}

function textOf(parts: readonly Part[]): string {
  return parts.map(partText).join('\n');
}

/** Exploratory filler that names nothing new, long enough to be worth trimming. */
const MUSING = [
  'Let me think about how these pieces fit together before I change anything.',
  'Hmm, there might be another way to look at this whole situation.',
  'Maybe the earlier reading was too quick and I should slow down a little.',
  'I wonder whether the surrounding code expects something different here.',
  'Perhaps it is simpler than it looks at first sight.',
  'Wait, I should consider the other branch as well before deciding.',
].join(' ');

describe('history_trim on the trajectories', function () {
  const tokens = new TokenCounter(100_000);
  const runs = new Map<string, { trajectory: Trajectory; stash: Stash; summary: ReplaySummary }>();

  before(async function () {
    skipWithoutData(this);
    for (const name of TRAJECTORIES) {
      const trajectory = loadTrajectory(name);
      const stash = newStash();
      const pipeline = new Pipeline([createHistoryTrim()], {}, { stash, tokens });
      runs.set(name, { trajectory, stash, summary: await replay(pipeline, stash, turnRequests(trajectory), tokens) });
    }
  });

  it('keeps every request prefix-stable and lossless, and saves tokens and cached cost', () => {
    for (const [name, { summary }] of runs) {
      assert.equal(summary.prefixStableTurns, summary.turns.length, `${name}: a turn rewrote the cached prefix`);
      assert.equal(summary.losslessTurns, summary.turns.length, `${name}: a marker does not expand back`);
      assert.ok(summary.tokensAfter < summary.tokensBefore, `${name}: no tokens saved`);
      assert.ok(summary.cachedCostAfter < summary.cachedCostBefore, `${name}: cached cost not lower`);
    }
    const long = runs.get('django__django-14034')!.summary;
    assert.ok((long.tokensBefore - long.tokensAfter) / long.tokensBefore > 0.15, 'the long-winded run lost less than 15% of its tokens');
  });

  it('keeps every command the agent ran verbatim and every path it named in view', () => {
    for (const [name, { trajectory, summary }] of runs) {
      const final = summary.turns[summary.turns.length - 1]!.optimized;
      let visible = '';
      final.messages.forEach((message, index) => {
        const trimmed = textOf(message.parts);
        visible += '\n' + trimmed;
        if (message.role !== 'assistant') return;
        const original = trajectory.messages[index]!.content;
        for (const block of original.match(BASH_BLOCK) ?? []) assert.ok(trimmed.includes(block), `${name} message ${index}: a command went missing`);
        for (const path of original.match(PATH) ?? []) assert.ok(visible.includes(path), `${name} message ${index}: path ${path} is no longer in view`);
      });
    }
  });

  it('gives every trimmed message back byte for byte when its marker is expanded', async () => {
    let trimmed = 0;
    for (const [name, { trajectory, stash, summary }] of runs) {
      const final = summary.turns[summary.turns.length - 1]!.optimized;
      for (const [index, message] of final.messages.entries()) {
        if (message.role !== 'assistant') continue;
        const text = textOf(message.parts);
        if (findMarkers(text).length === 0) continue;
        trimmed++;
        assert.equal(await stash.expandText(text), trajectory.messages[index]!.content, `${name} message ${index}`);
      }
    }
    assert.ok(trimmed > 20, `only ${trimmed} messages were trimmed`);
  });

  it('decides the same way every time', async () => {
    const name = 'astropy__astropy-12907';
    const again = newStash();
    const summary = await replay(new Pipeline([createHistoryTrim()], {}, { stash: again, tokens }), again, turnRequests(runs.get(name)!.trajectory), tokens);
    const first = runs.get(name)!.summary;
    summary.turns.forEach((turn, index) => assert.equal(JSON.stringify(turn.optimized), JSON.stringify(first.turns[index]!.optimized), `turn ${index} differs`));
  });
});

describe('history_trim on request shapes', () => {
  async function run(request: ChatRequest, options: Record<string, unknown> = {}): Promise<{ out: ChatRequest; stash: Stash; status: string }> {
    const stash = newStash();
    const pipeline = new Pipeline([createHistoryTrim()], { options: { [HISTORY_TRIM_ID]: options } }, { stash });
    const result = await pipeline.run(deepFreeze(request));
    return { out: result.request, stash, status: result.decisions[0]!.status };
  }

  it('trims Anthropic text but leaves signed thinking blocks and tool calls byte for byte', async () => {
    const thinking = { type: 'thinking', thinking: `Long private reasoning. ${MUSING}`, signature: 'EqQBCkYIARgCKkB' };
    const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' };
    const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'pytest tests/test_core.py' } };
    const request = parseRequest({
      model: 'claude-sonnet-4-5',
      system: 'You are a coding agent.',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: 'Fix the failing test in tests/test_core.py.' },
        { role: 'assistant', content: [thinking, redacted, { type: 'text', text: `${MUSING} The failing test is test_core_merge. I will run it now.` }, toolUse] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1 failed' }] },
      ],
    });
    const { out, stash, status } = await run(request);
    assert.equal(status, 'applied');
    const before = request.messages[2]!;
    const after = out.messages[2]!;
    assert.deepEqual(after.parts[0], before.parts[0]);
    assert.deepEqual(after.parts[1], before.parts[1]);
    assert.deepEqual(after.parts[3], before.parts[3]);
    const text = partText(after.parts[2]!);
    assert.ok(text.includes('The failing test is test_core_merge. I will run it now.'));
    assert.ok(!text.includes('I wonder whether'));
    assert.equal(await stash.expandText(text), partText(before.parts[2]!));
  });

  it('trims OpenAI assistant text next to tool calls, leaving the calls, reasoning fields and the fresh input alone', async () => {
    const request = parseRequest({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'Why does src/app/main.ts crash?' },
        { role: 'assistant', content: `${MUSING} I will read the file.`, reasoning_content: 'Private reasoning the provider returned.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/app/main.ts"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'export function main() {}' },
        { role: 'assistant', content: `${MUSING} Next I answer.` },
      ],
    });
    const { out } = await run(request);
    assert.ok(findMarkers(partText(out.messages[2]!.parts[0]!)).length === 1);
    assert.deepEqual(out.messages[2]!.parts[1], request.messages[2]!.parts[1]);
    // Reasoning a provider returns beside the content rides in `extra` and is not touched.
    assert.deepEqual(out.messages[2]!.extra, request.messages[2]!.extra);
    assert.equal(out.messages[2]!.extra?.reasoning_content, 'Private reasoning the provider returned.');
    // A trailing assistant message is a prefill: the current turn's fresh input stays as it came.
    assert.equal(out.messages[4], request.messages[4]);
  });

  it('works on VS Code-shaped requests (text and tool-call parts)', async () => {
    const request: ChatRequest = {
      format: 'vscode',
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Rename fooBar in lib/util.ts.' }], contentShape: 'parts' },
        { role: 'assistant', parts: [{ type: 'text', text: `${MUSING} I will edit lib/util.ts.` }, { type: 'tool_call', id: 'v1', name: 'edit', arguments: { path: 'lib/util.ts' } }], contentShape: 'parts' },
        { role: 'tool', parts: [{ type: 'tool_result', callId: 'v1', content: [{ type: 'text', text: 'ok' }], contentShape: 'parts' }], contentShape: 'parts' },
      ],
      tools: [],
      options: {},
    };
    const { out } = await run(request);
    assert.ok(partText(out.messages[1]!.parts[0]!).endsWith('I will edit lib/util.ts.'));
    assert.ok(partText(out.messages[1]!.parts[0]!).length < partText(request.messages[1]!.parts[0]!).length);
    assert.equal(out.messages[1]!.parts[1], request.messages[1]!.parts[1]);
  });

  it('leaves short messages, citations and non-assistant messages alone', async () => {
    const request = parseRequest({
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: MUSING },
        { role: 'assistant', content: [{ type: 'text', text: 'I read it. It is fine.' }, { type: 'text', text: `${MUSING} Done.`, citations: [{ type: 'char_location', cited_text: 'x' }] }] },
        { role: 'user', content: 'Thanks.' },
      ],
    });
    const { out, status } = await run(request);
    assert.equal(status, 'unchanged');
    assert.equal(out, request);
  });

  it('drops code the agent quotes from an earlier numbered listing, and keeps code it wrote itself', async () => {
    const listing = ['   266\t            with connection.cursor() as cursor:', '   267\t                cursor.execute(culling_sql, [cull_num])', '   268\t                row = cursor.fetchone()'].join('\n');
    const quoted = '```python\n267\t                cursor.execute(culling_sql, [cull_num])\n                row = cursor.fetchone()\n```';
    const proposed = '```python\n                row = cursor.fetchone() or [None]\n```';
    const request = parseRequest({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Fix the cull crash.' },
        { role: 'assistant', content: 'I print the file.\n\n```bash\nnl -ba cache/db.py | sed -n 266,268p\n```' },
        { role: 'user', content: `<returncode>0</returncode>\n<output>\n${listing}\n</output>` },
        { role: 'assistant', content: `THOUGHT: The lines are:\n${quoted}\n${MUSING}\nI will change it to:\n${proposed}\nThen I apply it.\n\n\`\`\`bash\nsed -i 's/x/y/' cache/db.py\n\`\`\`` },
        { role: 'user', content: '<returncode>0</returncode>\n<output>\n</output>' },
      ],
    });
    const { out, stash } = await run(request);
    const text = partText(out.messages[3]!.parts[0]!);
    assert.ok(!text.includes('cursor.execute(culling_sql'), 'the quote of the listing stayed');
    assert.ok(text.includes(proposed), 'the code the agent wrote itself went');
    assert.ok(text.includes("```bash\nsed -i 's/x/y/' cache/db.py\n```"));
    assert.ok(/1 quoted block elided/.test(text));
    assert.equal(await stash.expandText(text), partText(request.messages[3]!.parts[0]!));
  });

  it('respects minSavedTokens and keepLastSentences', async () => {
    const request = parseRequest({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Go.' },
        { role: 'assistant', content: `${MUSING} I will stop.` },
        { role: 'user', content: 'ok' },
      ],
    });
    assert.equal((await run(request, { minSavedTokens: 10_000 })).status, 'unchanged');
    assert.equal((await run(request, { keepLastSentences: 100 })).status, 'unchanged');
    const none = await run(request, { keepLastSentences: 0 });
    assert.ok(!partText(none.out.messages[1]!.parts[0]!).includes('I will stop.'));
  });

  it('rejects unknown options and fails open on invalid ones', async () => {
    assert.throws(() => new Pipeline([createHistoryTrim()], { options: { [HISTORY_TRIM_ID]: { keepRecent: 2 } } }, { stash: newStash() }), /unknown option "keepRecent"/);
    const request = parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Go.' }, { role: 'assistant', content: MUSING }, { role: 'user', content: 'ok' }] });
    const { out, status } = await run(request, { keepLastSentences: -1 });
    assert.equal(status, 'failed');
    assert.equal(out, request);
  });

  it('expands back byte for byte and keeps every command on arbitrary assistant text', async () => {
    const pieces = fc.constantFrom(
      'THOUGHT: ', 'Wait, maybe not. ', 'The bug is in `parse_row`. ', 'I wonder why. ', 'Hmm.\n', '\n\n', '- a list item\n', '1. First step. ',
      '```bash\nls -la src/\n```\n', '```python\nx = compute(1)\n```\n', '    indented code\n', '# Heading\n', 'e.g. this. ', 'See lib/a.py. ',
      MUSING, ' ', '…', '\r\n', 'I will run the tests.', 'Run it: ```bash\nmake check\n```\n',
    );
    await fc.assert(fc.asyncProperty(fc.array(pieces, { minLength: 1, maxLength: 24 }), async (chosen) => {
      const text = chosen.join('');
      const request = parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Go.' }, { role: 'assistant', content: text }, { role: 'user', content: 'ok' }] });
      const { out, stash } = await run(request);
      const trimmed = partText(out.messages[1]!.parts[0]!);
      assert.equal(await stash.expandText(trimmed), text);
      for (const block of text.match(BASH_BLOCK) ?? []) assert.ok(trimmed.includes(block));
    }), { numRuns: 150, seed: 7 });
  });

  it('is registered, on by default', () => {
    const strategy = createStrategies().find((candidate) => candidate.id === HISTORY_TRIM_ID);
    assert.ok(strategy);
    assert.equal(strategy.defaultEnabled, true);
  });
});
