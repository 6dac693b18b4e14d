import * as assert from 'node:assert/strict';
import { getContext, type ContextResult, type GetContextDependencies, type GetContextInput } from '../../../src/core/knowledge/getContext';
import { loadLibrary } from '../../../src/core/knowledge/library';
import { RecordingLogger } from '../../../src/core/ports';
import { countTokens } from '../../../src/core/tokens';
import { now, testLibrary, writeLibrary } from './support';
import { LIBRARY_TASKS } from './taskSuite';

async function run(input: GetContextInput | string, dependencies: GetContextDependencies = {}): Promise<ContextResult> {
  return getContext(await testLibrary(), typeof input === 'string' ? { task: input } : input, { now, ...dependencies });
}

const ids = (result: ContextResult): string[] => result.pages.map((page) => page.page_id);
const reasonOf = (result: ContextResult, id: string): string | undefined => result.pages.find((page) => page.page_id === id)?.reason;
const RULES = ['rules/claims-we-never-make', 'rules/competitor-mentions', 'rules/customer-names', 'rules/no-discount-promises', 'rules/pricing-source'];

describe('knowledge: get_context tasks', () => {
  for (const entry of LIBRARY_TASKS) {
    it(`brings what "${entry.task}" needs and nothing it should not`, async () => {
      const result = await run(entry.task);
      const missing = entry.wanted.filter((id) => !ids(result).includes(id));
      const unwanted = entry.unwanted.filter((id) => ids(result).includes(id));
      assert.deepEqual({ missing, unwanted }, { missing: [], unwanted: [] }, ids(result).join(', '));
    });
  }

  it('cold email to a CFO about Levyline: pack, persona, market, battlecard; not the other competitors or templates', async () => {
    const result = await run('cold email to a CFO at a 200-person logistics company evaluating Levyline');
    assert.deepEqual(result.packs, ['Outbound email']);
    assert.equal(reasonOf(result, 'voice/email-style'), 'recipe');
    assert.equal(reasonOf(result, 'templates/cold-email'), 'use');
    assert.equal(reasonOf(result, 'voice/voice-guide'), 'pinned');
    for (const wanted of ['personas/cfo', 'markets/logistics', 'battlecards/levyline']) assert.ok(ids(result).includes(wanted), `missing ${wanted}`);
    for (const unwanted of ['battlecards/taxwell', 'battlecards/brightledger', 'battlecards/quillo', 'templates/comparison-page', 'templates/follow-up-email', 'personas/ecommerce-ops', 'notes/dana-call-notes', 'drafts/levyline-pricing-update']) {
      assert.ok(!ids(result).includes(unwanted), `should not bring ${unwanted}`);
    }
    assert.deepEqual(result.plan.names.map((name) => `${name.name}:${name.kind}`).sort(), ['CFO:persona', 'Levyline:competitor', 'logistics:market']);
    assert.equal(result.plan.deliverable, 'cold email');
  });

  it('a narrow question gets a few sections, far below the budget', async () => {
    const result = await run('what is the refund window?');
    const excerpts = result.pages.filter((page) => page.extent === 'excerpts');
    assert.deepEqual(excerpts.map((page) => page.page_id), ['reference/refund-policy']);
    assert.equal(excerpts[0]!.sections.length, 1);
    assert.match(result.markdown, /cancel within 30 days/);
    assert.doesNotMatch(result.markdown, /Refunds after a downgrade/);
    assert.ok(result.tokens < 2000, `${result.tokens} tokens`);
  });

  it('a broad task keeps more than a narrow one', async () => {
    const narrow = await run('what is the refund window?');
    const broad = await run('write a comparison page against Taxwell for prospects switching from Taxwell');
    const sections = (result: ContextResult): number => result.pages.reduce((sum, page) => sum + (page.extent === 'excerpts' ? page.sections.length : 1), 0);
    assert.ok(sections(broad) > sections(narrow) + 3, `broad ${sections(broad)} narrow ${sections(narrow)}`);
    assert.ok(ids(broad).includes('battlecards/taxwell'));
    assert.ok(!ids(broad).includes('battlecards/levyline'));
    assert.deepEqual(broad.packs, ['Competitive deal']);
    assert.equal(reasonOf(broad, 'templates/comparison-page'), 'use');
  });

  it('finds a section by meaning of a different wording through its words and questions', async () => {
    const result = await run('our client was charged twice, what do we do');
    const refund = result.pages.find((page) => page.page_id === 'reference/refund-policy');
    assert.ok(refund, 'refund policy found');
    assert.deepEqual(refund.sections.map((section) => section.heading), ['Refund and cancellation policy › Duplicate charges']);
  });

  it('questions bring in the section that answers them', async () => {
    const result = await run('how long does implementation take for a new customer');
    const page = result.pages.find((entry) => entry.page_id === 'reference/implementation-timeline');
    assert.ok(page);
    assert.ok(page.sections.some((section) => section.ranks.questions === 1));
  });

  it('table rows: the row about the region asked for, with the table header', async () => {
    const result = await run('what is the Growth platform fee in the United Kingdom');
    const regional = result.pages.find((page) => page.page_id === 'pricing/regional-pricing');
    assert.ok(regional);
    assert.equal(regional.sections[0]!.kind, 'row');
    assert.ok(regional.sections.every((section) => section.kind === 'row'), 'rows stand in for the table');
    assert.match(result.markdown, /\| Region \| Currency \| Growth platform fee \| VAT filing \|\n\|---\|---\|---\|---\|\n(\|.*\n)*\| United Kingdom \| GBP \| £9,800 \|/);
    assert.doesNotMatch(result.markdown, /\| Canada \|/);
  });

  it('links widen the search: a page linked from a hit comes with reason link', async () => {
    const result = await run('cold email to a CFO at a 200-person logistics company evaluating Levyline');
    assert.equal(reasonOf(result, 'customers/northwind-case-study'), 'link');
  });

  it('folder siblings come only from coherent folders', async () => {
    const result = await run('how much does the Growth plan cost per year');
    assert.equal(reasonOf(result, 'pricing/plans-and-prices') !== undefined, true);
    const taxwell = await run('a prospect is switching from Taxwell, what do I tell them');
    // Battlecards are one per competitor: no sibling lift from the Taxwell card.
    assert.ok(!ids(taxwell).some((id) => id.startsWith('battlecards/') && id !== 'battlecards/taxwell'), ids(taxwell).join(', '));
  });

  it('pages matched by what they are for: read-whole pages in full, others their best two sections', async () => {
    const result = await run('preparing for a discovery call');
    assert.equal(reasonOf(result, 'templates/call-script'), 'use');
    assert.equal(result.pages.find((page) => page.page_id === 'templates/call-script')!.extent, 'full');
    const objection = await run('answering a pricing objection');
    const tooExpensive = objection.pages.find((page) => page.page_id === 'objections/too-expensive')!;
    assert.equal(tooExpensive.reason, 'use');
    assert.equal(tooExpensive.extent, 'excerpts');
    assert.ok(tooExpensive.sections.length <= 2);
  });

  it('is deterministic', async () => {
    const first = await run('cold email to a CFO at a 200-person logistics company evaluating Levyline');
    const second = await run('cold email to a CFO at a 200-person logistics company evaluating Levyline');
    assert.equal(first.markdown, second.markdown);
  });
});

describe('knowledge: get_context steps and the result', () => {
  it('rules come first, in full, under "Rules (always follow)"; reference after', async () => {
    const result = await run('what is the refund window?');
    assert.deepEqual(result.pages.filter((page) => page.reason === 'rule').map((page) => page.page_id), RULES);
    const rulesAt = result.markdown.indexOf('## Rules (always follow)');
    const referenceAt = result.markdown.indexOf('## Reference');
    assert.ok(rulesAt > 0 && referenceAt > rulesAt);
    assert.ok(result.markdown.indexOf('Never promise a discount in writing') < referenceAt);
    assert.match(result.markdown, /_rule · full page · page_id: rules\/no-discount-promises_/);
    assert.match(result.markdown, /_reference · excerpts · page_id: reference\/refund-policy_/);
    assert.match(result.markdown, /## Instructions from the Tallyway team\n\nYou are writing for Tallyway/);
    assert.match(result.markdown, /^<!-- herald get_context · packs: none · tags in the task: none -->/);
  });

  it('names the packs and the tags found in the task, and tagged sections rank higher', async () => {
    const result = await run('answer a pricing question about discounts');
    assert.deepEqual(result.tags, ['discounts', 'pricing']);
    assert.match(result.markdown, /tags in the task: discounts, pricing/);
    const library = await testLibrary();
    const tagged = result.pages.flatMap((page) => page.sections.filter((section) => section.ranks.tags !== undefined).map(() => page.page_id));
    assert.ok(tagged.length > 0);
    for (const id of tagged) assert.ok(library.page(id)!.meta.tags.some((tag) => tag === 'pricing' || tag === 'discounts'), id);
  });

  it('the pack argument applies that pack alone, and an unknown pack is an error naming the packs', async () => {
    const result = await run({ task: 'cold email to a CFO at a logistics company', pack: 'competitive deal' });
    assert.deepEqual(result.packs, ['Competitive deal']);
    await assert.rejects(run({ task: 'x', pack: 'Renewals' }), /no pack named "Renewals"; the library has "Competitive deal", "Outbound email"/);
  });

  it('rejects bad input with the field named', async () => {
    await assert.rejects(run({ task: '  ' }), /task: task is required/);
    await assert.rejects(run({ task: 'x', max_tokens: 500 }), /max_tokens/);
    await assert.rejects(run({ task: 'x', max_tokens: 40_000 }), /max_tokens/);
    await assert.rejects(run({ task: 'x', colour: 'red' } as unknown as GetContextInput), /colour/);
    await assert.rejects(run('x', { options: { closenesWindow: 0.2 } as never }), /invalid knowledge option/);
  });

  it('JSON says why every page came, with scores for searched sections', async () => {
    const result = await run('cold email to a CFO at a 200-person logistics company evaluating Levyline');
    const reasons = new Set(result.pages.map((page) => page.reason));
    for (const reason of ['rule', 'pinned', 'recipe', 'use', 'link', 'search']) assert.ok(reasons.has(reason as never), `no ${reason}`);
    const levyline = result.pages.find((page) => page.page_id === 'battlecards/levyline')!;
    assert.ok(levyline.sections.every((section) => section.score > 0 && section.ranks.names !== undefined));
    assert.ok(JSON.parse(JSON.stringify(result)).pages.length === result.pages.length);
  });

  it('nothing close enough: says so, asks to check with the user, names nearest pages, logs it', async () => {
    const logger = new RecordingLogger();
    const result = await run('write a LinkedIn post about our new office dog', { logger });
    assert.equal(result.nothingFound, true);
    assert.match(result.markdown, /Nothing in the library comes close enough to this task/);
    assert.match(result.markdown, /check with the user rather than guess/);
    assert.ok(result.pages.every((page) => page.reason === 'rule' || page.reason === 'pinned'));
    assert.ok(logger.lines.some((line) => line.code === 'nothing-found'));
    const found = await run('what is the refund window?');
    assert.equal(found.nothingFound, false);
  });

  it('a task about what a rule covers is found: the rule is in the bundle, and the reference part says the rules cover it', async () => {
    const directory = writeLibrary({
      'billing/refunds.md': '---\ntitle: Refund policy\ntype: rule\n---\n# Refund policy\n\nRefunds are allowed within 30 days of purchase. Never refund to a different card.\n',
      'engineering/review.md': '---\ntitle: Code review checklist\n---\n## Tests\nEvery change comes with a test.\n',
    });
    const library = loadLibrary(directory);
    const covered = await getContext(library, { task: 'refund larger than the remaining balance' }, { now });
    assert.equal(covered.nothingFound, false);
    assert.ok(covered.pages.some((page) => page.page_id === 'billing/refunds' && page.reason === 'rule'));
    assert.doesNotMatch(covered.markdown, /Nothing in the library comes close enough/);
    assert.match(covered.markdown, /The rules above cover this task \(Refund policy \(page_id: billing\/refunds\)\)/);
    // A word of the title the rule's text never uses ("policy") is not its topic.
    const other = await getContext(library, { task: 'what is our privacy policy' }, { now });
    assert.equal(other.nothingFound, true);
    assert.match(other.markdown, /Nothing in the library comes close enough/);
  });

  it('names the nearest pages with ids when nothing is close enough', async () => {
    const result = await run('how do we handle office plants and the coffee machine data');
    assert.equal(result.nothingFound, true);
    assert.ok(result.nearest.length > 0 && result.nearest.length <= 3);
    for (const page of result.nearest) assert.ok(result.markdown.includes(`page_id: ${page.page_id}`));
  });
});

describe('knowledge: get_context budget', () => {
  it('never exceeds max_tokens, counted with the real tokenizer', async () => {
    for (const maxTokens of [1000, 1500, 2500, 12000]) {
      const result = await run({ task: 'write a comparison page against Levyline with our prices and a customer who switched', max_tokens: maxTokens });
      assert.equal(result.tokens, countTokens(result.markdown));
      assert.ok(result.tokens <= maxTokens, `${result.tokens} > ${maxTokens}`);
    }
  });

  it('whole pages use at most three quarters of the budget; a pinned page that does not fit is skipped', async () => {
    const big = 'This paragraph about the house style is long on purpose. '.repeat(60);
    const directory = writeLibrary({
      'rules/short.md': '---\ntitle: Short rule\ntype: rule\n---\nBe brief.\n',
      'style/a.md': `---\ntitle: Style A\ntype: voice\npinned: true\n---\n${big}\n`,
      'style/b.md': `---\ntitle: Style B\ntype: voice\npinned: true\n---\n${big}\n`,
      'style/c.md': `---\ntitle: Style C\ntype: voice\npinned: true\n---\n${big}\n`,
      'faq/refunds.md': '---\ntitle: Refunds\n---\n## Refund window\nThirty days for a full refund.\n',
    });
    const library = loadLibrary(directory);
    const result = await getContext(library, { task: 'refund window', max_tokens: 2000 }, { now });
    const whole = result.pages.filter((page) => page.reason === 'pinned');
    assert.ok(whole.length >= 1 && whole.length < 3, `${whole.length} pinned pages`);
    assert.ok(whole.reduce((sum, page) => sum + page.tokens, 0) <= 1500);
    assert.ok(result.pages.some((page) => page.page_id === 'faq/refunds'), 'search still has room');
    assert.ok(result.tokens <= 2000);
  });

  it('rules are never cut, even past the budget', async () => {
    const long = 'Every claim in an email must be checked against the price book before it is sent. '.repeat(40);
    const directory = writeLibrary({
      'rules/a.md': `---\ntitle: Rule A\ntype: rule\n---\n${long}\n`,
      'rules/b.md': `---\ntitle: Rule B\ntype: rule\n---\n${long}\n`,
      'faq/refunds.md': '---\ntitle: Refunds\n---\n## Refund window\nThirty days.\n',
    });
    const result = await getContext(loadLibrary(directory), { task: 'refund window', max_tokens: 1000 }, { now });
    assert.equal(result.rulesOverBudget, true);
    assert.equal(result.pages.filter((page) => page.reason === 'rule').length, 2);
    assert.ok(result.tokens > 1000);
    assert.ok(!result.pages.some((page) => page.page_id === 'faq/refunds'), 'no room left for anything else');
  });

  it('a read-whole page is never sent in pieces: whole if it fits, otherwise not at all', async () => {
    const steps = Array.from({ length: 70 }, (_, index) => `${index + 1}. Step ${index + 1} of the discount approval process: record the approver and the date.`).join('\n');
    const directory = writeLibrary({
      'processes/approval.md': `---\ntitle: Discount approval\ntype: process\n---\n## Who approves\nThe deal desk approves discounts.\n\n## Steps\n${steps}\n`,
      'faq/other.md': '---\ntitle: Other\n---\n## Deal desk hours\nThe deal desk answers discount approval questions within a day.\n',
    });
    const library = loadLibrary(directory);
    const roomy = await getContext(library, { task: 'who approves a discount at the deal desk', max_tokens: 4000 }, { now });
    const approval = roomy.pages.find((page) => page.page_id === 'processes/approval');
    assert.equal(approval?.extent, 'full');
    const tight = await getContext(library, { task: 'who approves a discount at the deal desk', max_tokens: 1000 }, { now });
    assert.ok(!tight.pages.some((page) => page.page_id === 'processes/approval'), 'too big to fit whole, so not sent');
    assert.doesNotMatch(tight.markdown, /The deal desk approves discounts/);
  });
});

describe('knowledge: get_context exclusions', () => {
  it('never includes drafts or expired pages', async () => {
    const result = await run('a prospect switching from Levyline: promotion and pricing changes');
    assert.ok(!ids(result).includes('drafts/levyline-pricing-update'));
    assert.ok(!ids(result).includes('promotions/q3-2025-promo'));
    assert.doesNotMatch(result.markdown, /25% renewal uplift|first quarter of filings free/);
    const partner = await run('working with an accounting firm partner on a referral');
    assert.ok(ids(partner).includes('promotions/2027-partner-promo'), 'not yet expired');
    const later = await run('working with an accounting firm partner on a referral', { now: () => new Date('2028-01-01T00:00:00Z') });
    assert.ok(!ids(later).includes('promotions/2027-partner-promo'), 'expired by 2028');
  });

  it("never includes other people's private notes; your own come back labelled", async () => {
    const task = 'Meridian Logistics call notes about Levyline renewal increase';
    const anonymous = await run(task);
    assert.ok(!ids(anonymous).includes('notes/dana-call-notes'));
    const sam = await run(task, { viewer: 'sam' });
    assert.ok(!ids(sam).includes('notes/dana-call-notes'));
    const dana = await run(task, { viewer: 'dana' });
    assert.ok(ids(dana).includes('notes/dana-call-notes'));
    assert.match(dana.markdown, /page_id: notes\/dana-call-notes · your private note/);
  });

  it('folder: only that folder, rules too; allowed folders: nothing from outside', async () => {
    const result = await run({ task: 'how much does the Growth plan cost', folder: 'pricing' });
    assert.ok(result.pages.length > 0);
    assert.ok(result.pages.every((page) => page.page_id.startsWith('pricing/')), ids(result).join(', '));
    const limited = await run('cold email to a CFO evaluating Levyline', { allowedFolders: ['personas', 'battlecards'] });
    assert.ok(limited.pages.every((page) => /^(personas|battlecards)\//.test(page.page_id)), ids(limited).join(', '));
    assert.deepEqual(limited.packs, ['Outbound email']);
  });

  it('tags: only pages carrying one of them', async () => {
    const result = await run({ task: 'cold email to a CFO evaluating Levyline', tags: ['competitive'] });
    assert.ok(result.pages.length > 0);
    const library = await testLibrary();
    for (const page of result.pages) assert.ok(library.page(page.page_id)!.meta.tags.includes('competitive'), page.page_id);
  });
});
