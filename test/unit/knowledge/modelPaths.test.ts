import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkLibrary } from '../../../src/core/knowledge/checks';
import { getContext } from '../../../src/core/knowledge/getContext';
import { JudgeMemory } from '../../../src/core/knowledge/judge';
import { loadLibrary } from '../../../src/core/knowledge/library';
import { makePlan, rulesPlan } from '../../../src/core/knowledge/plan';
import { RecordingLogger, type ModelCompletionRequest } from '../../../src/core/ports';
import { copyLibrary, judgeCandidates, now, RecordingModel, testLibrary } from './support';

const COLD_EMAIL = 'cold email to a CFO at a 200-person logistics company evaluating Levyline';

/** A judge that says "different" for anything about Taxwell or Quillo, and "not used" for processes. */
function rulesJudge(request: ModelCompletionRequest): string {
  const verdicts = judgeCandidates(request.prompt).map((candidate) => {
    if (candidate.kind === 'pack') return { id: candidate.id, applies: candidate.label.includes('Outbound') ? 0.9 : 0.1 };
    const different = /Taxwell|Quillo/.test(candidate.label + candidate.text) ? 0.9 : 0.05;
    return { id: candidate.id, use: /\(process\)/.test(candidate.label) ? 0.1 : 0.8, different };
  });
  return JSON.stringify({ verdicts });
}

/** Answers plan prompts with a fixed plan and judge prompts with {@link rulesJudge}. */
function planAndJudge(plan: object): RecordingModel {
  return new RecordingModel((request) => (request.prompt.includes('Candidates:') ? rulesJudge(request) : JSON.stringify(plan)));
}

describe('knowledge: plan', () => {
  it('rules plan: names with kinds from the library, deliverable from template titles, constraints', async () => {
    const library = await testLibrary();
    const plan = rulesPlan('Follow-up email to the Controller at Northwind about Taxwell, under 80 words, do not mention price', library.names, library.pages);
    assert.deepEqual(plan.names.map((name) => `${name.name}:${name.kind}`).sort(), ['Controller:persona', 'Taxwell:competitor']);
    assert.equal(plan.deliverable, 'follow-up email');
    assert.deepEqual(plan.searches, ['follow-up email', 'Controller', 'Taxwell']);
    assert.deepEqual(plan.constraints, ['under 80 words', 'do not mention price']);
    assert.equal(plan.source, 'rules');
  });

  it('model plan: asks the model, uses its names and searches, and the task is still searched as written', async () => {
    const library = await testLibrary();
    const model = planAndJudge({ names: [{ name: 'Levyline', kind: 'competitor' }, { name: 'CFO', kind: 'persona' }], deliverable: 'cold email', searches: ['switching cost from Levyline', 'finance buyer cold outreach'], constraints: [] });
    const result = await getContext(library, { task: COLD_EMAIL }, { model, judgeMode: 'off', now });
    assert.equal(result.plan.source, 'model');
    assert.deepEqual(result.plan.searches, ['switching cost from Levyline', 'finance buyer cold outreach']);
    assert.equal(model.requests.length, 1, 'judge off: only the plan was asked');
    assert.match(model.requests[0]!.prompt, /Task: cold email to a CFO/);
    const levyline = result.pages.find((page) => page.page_id === 'battlecards/levyline')!;
    // The task as written is ranking 0, the plan's searches 1 and 2.
    assert.ok(levyline.sections.some((section) => section.ranks['words:0'] !== undefined));
    assert.ok(result.pages.some((page) => page.sections.some((section) => section.ranks['words:1'] !== undefined || section.ranks['words:2'] !== undefined)));
  });

  it('falls back to the rules plan when the model fails, answers nonsense or is too slow', async () => {
    const library = await testLibrary();
    for (const model of [
      new RecordingModel(() => { throw new Error('offline'); }),
      new RecordingModel(() => 'I think the task is about email.'),
      new RecordingModel(() => new Promise<string>((resolve) => setTimeout(() => resolve('{}'), 500))),
    ]) {
      const logger = new RecordingLogger();
      const plan = await makePlan(COLD_EMAIL, library.names, library.pages, model, 50, logger);
      assert.equal(plan.source, 'rules');
      assert.equal(model.requests.length, 1);
      assert.ok(logger.lines.some((line) => line.code === 'plan-model-failed'));
    }
  });
});

describe('knowledge: judge', () => {
  it('gate: one call covers packs and sections; its answers apply', async () => {
    const library = await testLibrary();
    const task = 'a prospect switching from a competitor asked for a cold email about pricing';
    const heuristic = await getContext(library, { task }, { now });
    const model = new RecordingModel(rulesJudge);
    const gated = await getContext(library, { task }, { judgeModel: model, judgeMode: 'gate', now });
    assert.equal(model.requests.length, 1, 'one judge call');
    const prompt = model.requests[0]!.prompt;
    assert.match(prompt, /\(pack\) Pack "Outbound email"/);
    assert.match(prompt, /\(row\)/, 'table rows are asked about too');
    assert.match(prompt, /row \(one row of a table, shown with the table's description\): only "different"/);
    assert.deepEqual(gated.packs, ['Outbound email']);
    const gatedText = gated.pages.flatMap((page) => page.page_id);
    assert.ok(!gatedText.includes('battlecards/taxwell') && !gatedText.includes('battlecards/quillo'));
    assert.ok(!gated.pages.some((page) => page.page_id.startsWith('processes/')), 'processes judged not used');
    assert.ok(gated.pages.some((page) => page.sections.some((section) => section.judge?.source === 'model')));
    assert.notDeepEqual(heuristic.pages.map((page) => page.page_id), gated.pages.map((page) => page.page_id));
  });

  it('shadow: the judge answers and is logged, the heuristics decide', async () => {
    const library = await testLibrary();
    const task = 'answer a pricing objection from a prospect comparing us with Taxwell';
    const heuristic = await getContext(library, { task }, { now });
    const logger = new RecordingLogger();
    const model = new RecordingModel(rulesJudge);
    const shadow = await getContext(library, { task }, { judgeModel: model, judgeMode: 'shadow', logger, now });
    assert.equal(model.requests.length, 1);
    assert.equal(shadow.markdown, heuristic.markdown);
    assert.ok(shadow.judge.asked > 0);
    assert.ok(shadow.judge.wouldDrop.some((id) => id.startsWith('battlecards/taxwell')), 'it would have dropped the Taxwell card');
    assert.ok(logger.lines.some((line) => line.code === 'judge-shadow'));
  });

  it('a failing judge leaves the heuristics in charge for that request', async () => {
    const library = await testLibrary();
    const logger = new RecordingLogger();
    const failing = new RecordingModel(() => 'not json');
    const result = await getContext(library, { task: COLD_EMAIL }, { judgeModel: failing, logger, now });
    const heuristic = await getContext(library, { task: COLD_EMAIL }, { now });
    assert.equal(result.markdown, heuristic.markdown);
    assert.ok(result.judge.failed);
    assert.ok(logger.lines.some((line) => line.code === 'judge-failed'));
  });

  it('remembers verdicts confirmed twice, until a page changes or two weeks pass', async () => {
    let clock = new Date('2026-06-01T12:00:00Z');
    const memory = new JudgeMemory(() => clock);
    const directory = copyLibrary();
    let library = loadLibrary(directory);
    const model = new RecordingModel(rulesJudge);
    const ask = () => getContext(library, { task: COLD_EMAIL }, { judgeModel: model, judgeMemory: memory, now: () => clock });
    await ask();
    await ask();
    assert.equal(model.requests.length, 2, 'asked twice to confirm');
    const third = await ask();
    assert.equal(model.requests.length, 2, 'the third answer comes from memory');
    assert.ok(third.pages.some((page) => page.sections.some((section) => section.judge?.source === 'memory')));
    assert.deepEqual(JudgeMemory.fromJSON(JSON.parse(JSON.stringify(memory)), () => clock).size, memory.size);

    // A changed page forgets the verdicts about it: the judge is asked again, about that page only.
    const battlecard = path.join(directory, 'battlecards', 'levyline.md');
    fs.writeFileSync(battlecard, fs.readFileSync(battlecard, 'utf8').replace('three months', 'four months'));
    library = loadLibrary(directory);
    await ask();
    assert.equal(model.requests.length, 3);
    const asked = judgeCandidates(model.requests[2]!.prompt);
    assert.ok(asked.length > 0 && asked.every((candidate) => candidate.label.includes('Levyline')), asked.map((candidate) => candidate.label).join(' | '));

    // Two weeks on, nothing is remembered.
    await ask();
    clock = new Date('2026-06-16T12:00:01Z');
    const before = model.requests.length;
    await ask();
    assert.equal(model.requests.length, before + 1);
    assert.ok(judgeCandidates(model.requests.at(-1)!.prompt).length > asked.length);
  });
});

describe('knowledge: library checks', () => {
  const addPage = (directory: string, relative: string, content: string): void => {
    fs.mkdirSync(path.dirname(path.join(directory, relative)), { recursive: true });
    fs.writeFileSync(path.join(directory, relative), content);
  };

  it('heuristics flag a number stated differently and a rule turned around, with both wordings', async () => {
    const directory = copyLibrary();
    addPage(directory, 'reference/cancellation-faq.md', '---\ntitle: Cancellation FAQ\n---\n## New customers\nNew customers can cancel within 14 days of signature for a full refund of the platform fee.\n\n## Competitors\nName a competitor only when the prospect named them first. Always disparage a competitor and its people.\n');
    const flags = await checkLibrary(loadLibrary(directory), { changed: ['reference/cancellation-faq'] });
    const number = flags.find((flag) => flag.otherPageId === 'reference/refund-policy');
    assert.ok(number, JSON.stringify(flags));
    assert.equal(number.kind, 'conflict');
    assert.match(number.wording, /within 14 days/);
    assert.match(number.otherWording, /within 30 days/);
    assert.match(number.detail, /14 where "Refund and cancellation policy" states 30/);
    const rule = flags.find((flag) => flag.otherPageId === 'rules/competitor-mentions' && flag.kind === 'conflict');
    assert.ok(rule && rule.kind === 'conflict' && /Never disparage/.test(rule.otherWording), JSON.stringify(flags));
  });

  it('heuristics flag ground another page already covers, and a sound library has no flags', async () => {
    const directory = copyLibrary();
    addPage(directory, 'voice/email-length.md', '---\ntitle: Email length\ntype: style\n---\nCold emails stay under 120 words and follow-ups under 80.\n');
    const flags = await checkLibrary(loadLibrary(directory), { changed: ['voice/email-length'] });
    assert.ok(flags.some((flag) => flag.kind === 'overlap' && flag.otherPageId === 'voice/email-style'), JSON.stringify(flags));
    assert.deepEqual(await checkLibrary(await testLibrary()), []);
  });

  it('with a model: asks it with the page and its neighbours, and keeps its flags about real neighbours', async () => {
    const library = await testLibrary();
    const model = new RecordingModel(() => JSON.stringify({ flags: [
      { kind: 'conflict', other_page_id: 'reference/implementation-timeline', wording: 'Onboarding in under two weeks', other_wording: 'go live in 8 to 12 business days', detail: 'two weeks vs 12 business days' },
      { kind: 'overlap', other_page_id: 'not/a-neighbour', wording: 'x', other_wording: 'y' },
    ] }));
    const flags = await checkLibrary(library, { changed: ['battlecards/levyline'], model, neighbours: 3 });
    assert.equal(model.requests.length, 1);
    assert.match(model.requests[0]!.prompt, /Changed page \(page_id battlecards\/levyline/);
    assert.equal((model.requests[0]!.prompt.match(/^Neighbour \(page_id/gm) ?? []).length, 3);
    const neighbourIds = [...model.requests[0]!.prompt.matchAll(/^Neighbour \(page_id ([^,]+),/gm)].map((match) => match[1]);
    assert.deepEqual(flags.map((flag) => flag.otherPageId), neighbourIds.includes('reference/implementation-timeline') ? ['reference/implementation-timeline'] : []);
    assert.ok(flags.every((flag) => flag.source === 'model'));
  });

  it('falls back to heuristics when the model fails', async () => {
    const directory = copyLibrary();
    addPage(directory, 'reference/cancellation-faq.md', '---\ntitle: Cancellation FAQ\n---\nNew customers can cancel within 14 days of signature for a full refund of the platform fee.\n');
    const logger = new RecordingLogger();
    const flags = await checkLibrary(loadLibrary(directory), { changed: ['reference/cancellation-faq'], model: new RecordingModel(() => { throw new Error('down'); }), logger });
    assert.ok(flags.some((flag) => flag.kind === 'conflict' && flag.source === 'heuristic'));
    assert.ok(logger.lines.some((line) => line.code === 'library-check-model-failed'));
  });
});
