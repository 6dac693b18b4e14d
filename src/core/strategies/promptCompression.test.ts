import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { findMarkers } from '../stash/marker';
import { itWithData, loadTrajectory, sharedPath, turnRequests } from '../../../test/support/sharedData';
import { replay } from '../../../test/support/replay';
import { createPromptCompression } from './promptCompression';
import { tidyProse } from './shared/proseTidy';
import { assertNoPromptText, createRig, partTexts } from '../../../test/support/strategyTestKit';

const WORDY = [
  'You are a senior support engineer.',
  'Read the ticket below and reply. Be concise. Be concise. Be concise.',
  'Customers write in about billing, refunds, outages and account access; answer in their language.',
  'Then suggest next steps. Then suggest next steps.',
  '',
  '',
  '',
  '- Quote   the   customer   ID',
  '- Never promise refunds',
  '',
  '```python',
  'x  =  1   # spacing in code is kept',
  'x  =  1   # spacing in code is kept',
  '```',
  '',
  '    indented   code   stays',
  '',
  'Use `a   b` exactly.   Escalate outages to the on-call engineer before replying to anyone.',
  '',
  'Read the ticket below and reply. Be concise.',
  '',
  '- Quote the customer ID',
  '- Never promise refunds',
].join('\n');

/** The wordy prompt with a closing reminder that repeats two of its sentences. */
const SYSTEM = `${WORDY}\n\nYou are a senior support engineer.   Be concise.`;

describe('prompt_compression', () => {
  it('tidies prose: duplicate sentences and paragraphs dropped, whitespace collapsed, code and structure kept', () => {
    const result = tidyProse(WORDY);
    assert.equal(
      result.text,
      [
        'You are a senior support engineer.',
        'Read the ticket below and reply. Be concise.',
        'Customers write in about billing, refunds, outages and account access; answer in their language.',
        'Then suggest next steps.',
        '',
        '- Quote the customer ID',
        '- Never promise refunds',
        '',
        '```python',
        'x  =  1   # spacing in code is kept',
        'x  =  1   # spacing in code is kept',
        '```',
        '',
        '    indented   code   stays',
        '',
        'Use `a   b` exactly. Escalate outages to the on-call engineer before replying to anyone.',
        '',
        '',
      ].join('\n'),
    );
    assert.equal(result.duplicateSentences, 5);
    assert.equal(result.duplicateParagraphs, 1);
  });

  it('rewrites the system prompt and the user prose around a pasted log, never the log, losslessly (OpenAI)', async () => {
    const log = Array.from({ length: 45 }, (_, index) => `2026-06-01 10:00:${String(index).padStart(2, '0')}  INFO   worker   started    job ${index}`).join('\n');
    const question = `${'Why   does   the   worker   restart?   It   started   yesterday.   '.repeat(8)}\n\n\n\n\`\`\`\n${log}\n\`\`\`\n\nWhy   does   the   worker   restart?`;
    const messages = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: question },
    ];
    const rig = createRig([createPromptCompression()]);
    const result = await rig.run({ model: 'gpt-4o', messages });
    const [system, user] = partTexts(result.request);
    assert.ok(system!.startsWith('You are a senior support engineer.\nRead the ticket below and reply. Be concise.\nCustomers'));
    assert.match(system!, /\n\[herald: prompt tidied, 8 repeats dropped · retrieve hr_[a-z2-7]{16}\]$/);
    assert.ok(user!.includes(log), 'the pasted log is untouched');
    assert.ok(user!.startsWith('Why does the worker restart? It started yesterday.\n\n```'), user!.slice(0, 120));
    assert.equal(await rig.stash.expandText(system!), SYSTEM);
    assert.equal(await rig.stash.expandText(user!), question);
    assertNoPromptText(result.decisions, [SYSTEM, question]);
  });

  it('tidies an Anthropic system block list; leaves short and already tidy texts alone', async () => {
    const rig = createRig([createPromptCompression()]);
    const tidy = 'A tidy instruction that is long enough to be considered for compression by the strategy. '.repeat(1) + 'x'.repeat(400);
    const result = await rig.run({
      model: 'claude-sonnet-4',
      max_tokens: 100,
      system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
      // A session's first request: the provider holds none of it yet (a system prompt it has
      // cached is a rewrite of its cache, priced in cacheEconomics.ts).
      messages: [{ role: 'user', content: 'Short   question?' }, { role: 'user', content: tidy }],
    });
    const texts = partTexts(result.request);
    assert.ok(findMarkers(texts[0]!).length === 1);
    assert.deepEqual(result.request.messages[0]!.parts[0]!.type === 'text' && result.request.messages[0]!.parts[0]!.extra, { cache_control: { type: 'ephemeral' } });
    assert.equal(texts[1], 'Short   question?', 'under 400 characters: untouched');
    assert.equal(texts[2], tidy);
  });

  it('leaves a user\'s message alone when tidying would save only a sliver of it, and never re-spaces data in it', async () => {
    const table = ['name      status    took', 'billing   failed    812ms', 'refunds   ok        45ms'].join('\n');
    const words = [
      'Please look at the results below and tell me which service failed and why it took so long to answer the request.',
      'We deployed a new build of the billing service this morning, and the refunds service shares its database.',
      'Our on-call engineer saw the latency alert at ten past nine, but the dashboards looked  normal afterwards.',
      'If you need more output, say which command to run and I will paste it here for you.',
    ].join(' ');
    const rig = createRig([createPromptCompression()]);
    const sliver = await rig.run({ model: 'gpt-4o', messages: [{ role: 'user', content: `${words}\n\n${table}` }] });
    assert.equal(partTexts(sliver.request)[0], `${words}\n\n${table}`, 'a saving of a few tokens puts no marker on the user\'s words');
    const repeated = `${`${words}\n\n`.repeat(3)}${table}`;
    const tidied = partTexts((await rig.run({ model: 'gpt-4o', messages: [{ role: 'user', content: repeated }] })).request)[0]!;
    assert.ok(findMarkers(tidied).length === 1 && tidied.length < repeated.length / 2, 'a real saving is taken');
    assert.ok(tidied.includes(table), 'the aligned columns keep their spacing');
  });

  itWithData('on a real trajectory: the task is decided on its first turn with every code block intact, prefix-stable and lossless', async () => {
    const trajectory = loadTrajectory('django__django-14672');
    const rig = createRig([createPromptCompression()]);
    const summary = await replay(rig.pipeline, rig.stash, turnRequests(trajectory), rig.tokens);
    assert.equal(summary.prefixStableTurns, summary.turns.length);
    assert.equal(summary.losslessTurns, summary.turns.length);
    const task = trajectory.messages[1]!.content;
    const first = partTexts(summary.turns[0]!.optimized)[1]!;
    const last = partTexts(summary.turns[summary.turns.length - 1]!.optimized)[1]!;
    assert.equal(last, first, 'the same bytes on every turn');
    // Tidying the task saves under a tenth of it: no marker goes on the user's words for that.
    assert.equal(first, task);
    for (const block of task.match(/```[\s\S]*?```/g) ?? []) assert.ok(first.includes(block), 'a code block changed');
    assert.ok(fs.existsSync(sharedPath('trajectories')));
  });
});
