import * as assert from 'node:assert/strict';
import { ripgrepHits, definesWord } from '../../../test/support/workloads/heldOutCode';
import { detectContentFormat } from './detect';
import { asksForDefinition, definesName, definitionHitsOf } from './grepDefinitions';

/** rg -n -C1 refund over a small project, as rg prints it piped. */
const HITS = [
  'src/billing/refunds.py-11-',
  'src/billing/refunds.py:12:def issue_refund(order, amount):',
  'src/billing/refunds.py-13-    """Refund part of an order."""',
  '--',
  'src/billing/refunds.py-40-    if order.paid:',
  'src/billing/refunds.py:41:        return issue_refund(order, order.total)',
  'src/billing/refunds.py-42-    return None',
  '--',
  'src/api/routes.ts-7-',
  'src/api/routes.ts:8:export const refundRoute = async (req: Request) => {',
  'src/api/routes.ts-9-  const body = await req.json();',
  '--',
  'src/api/routes.ts:30:  await refundRoute(req);',
  'src/api/routes.ts:31:  log("refund sent");',
  '--',
  'src/web/cart.js:5:  cart.refund = total;',
  'src/web/cart.js:6:  showRefund(cart.refund);',
].join('\n');

describe('grep hits under a definition question', () => {
  it('reads the questions that ask where something is defined, and no others', () => {
    for (const question of ['Where is retry defined, not just used?', 'where does the code define refund?', 'Which file defines the parser?', 'Show me the definition of issue_refund', 'Where is the refund declared?', 'Which functions with "check" in the name are defined here?']) assert.ok(asksForDefinition(question), question);
    for (const question of ['Why do refunds fail?', 'How often is retry called?', 'List every use of refund.', 'Why is refund undefined at runtime?', undefined]) assert.ok(!asksForDefinition(question), String(question));
  });

  it('reads definitions in the syntax languages share, and not calls, uses or assignments', () => {
    for (const line of ['def issue_refund(order, amount):', 'function refundAll() {', 'export async function* refunds(x) {', 'class RefundPolicy(Base):', 'fn refund_total(x: u32) -> u32 {', 'func (s *Store) Refund(id int) error {', 'type RefundState = "open" | "done"', 'export const refundRoute = async (req: Request) => {', 'let onRefund = x => x', '  refund (order) {', '  static async refundAll() {', '  refund: function (order) {', '    public void refundOrder(Order order) {', '  private static async Task<bool> RefundAsync(int id)', '    suspend fun refund(id: Long): Boolean {']) {
      assert.ok(definesName(line, 'refund'), line);
    }
    for (const line of ['        return issue_refund(order, order.total)', '  await refundRoute(req);', '  cart.refund = total;', '  if (refund(order)) {', '// refund the rest', 'const refundCount = 3', '    return refundOrder(order);', '    public Refund refund;']) assert.ok(!definesName(line, 'refund'), line);
  });

  it('keeps each definition with its context as grep printed them, and counts the other hits by file', () => {
    assert.equal(detectContentFormat(HITS), 'grep', 'context lines (path-N-text) read as grep');
    const cut = definitionHitsOf(`${HITS}\n`, 'Where is refund defined?');
    assert.ok(cut !== undefined);
    assert.equal(cut.definitions, 2);
    assert.equal(cut.uses, 5);
    assert.equal(cut.text, [
      'src/billing/refunds.py-11-',
      'src/billing/refunds.py:12:def issue_refund(order, amount):',
      'src/billing/refunds.py-13-    """Refund part of an order."""',
      '--',
      'src/api/routes.ts-7-',
      'src/api/routes.ts:8:export const refundRoute = async (req: Request) => {',
      'src/api/routes.ts-9-  const body = await req.json();',
      '[2 hits above define a name holding "refund"; the other hits, by file: src/billing/refunds.py 1, src/api/routes.ts 2, src/web/cart.js 2]',
      '',
    ].join('\n'));
    assert.equal(definitionHitsOf(HITS, 'Why do refunds fail?'), undefined, 'another question');
    assert.equal(definitionHitsOf(HITS, 'Where is the parser defined?'), undefined, 'the question names no word the hits hold');
    assert.equal(definitionHitsOf(`${HITS}\nnot a hit at all`, 'Where is refund defined?'), undefined, 'output that is not only hits');
  });

  it('names at most twenty files in the count of the other hits, and sums the rest', () => {
    const uses = Array.from({ length: 30 }, (_, index) => `src/module_${index}.py:${index + 3}:    refund(order_${index})`);
    const cut = definitionHitsOf(['src/billing.py:4:def refund(order):', ...uses].join('\n'), 'Where is refund defined?')!;
    const count = cut.text.split('\n').pop()!;
    assert.ok(count.includes('src/module_19.py 1, 10 more files 10]'), count);
    assert.ok(!count.includes('src/module_20.py'));
  });

  it('on rg\'s real hits over an installed package, keeps every hit that defines a retry function, method or class', () => {
    const { output, hits } = ripgrepHits('node_modules/undici/lib', 'retry');
    const defining = hits.filter((hit) => definesWord(hit.text, 'retry'));
    assert.ok(hits.length > 50 && defining.length > 0);
    const cut = definitionHitsOf(output, 'Where is retry defined, not just used?')!;
    for (const hit of defining) assert.ok(cut.text.includes(`${hit.path}:${hit.line}:${hit.text}\n`), hit.text);
    assert.ok(cut.text.length < output.length / 5, `${cut.text.length} of ${output.length}`);
  });
});
