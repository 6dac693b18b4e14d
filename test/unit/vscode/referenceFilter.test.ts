import { strict as assert } from 'node:assert';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { filterReferences, type AttachedReference } from '../../../src/vscode/knowledge/referenceFilter';

const REFUND_CODE = `export function refundWindowDays(plan: Plan): number {
  // Refunds are allowed within 30 days of purchase; a downgrade restarts the refund window.
  return plan.downgradedAt ? daysSince(plan.downgradedAt) : 30;
}
export function canRefund(order: Order, today: Date): boolean {
  return daysBetween(order.purchasedAt, today) <= refundWindowDays(order.plan);
}`;

const STYLES = `.sidebar { display: flex; gap: 4px; color: var(--vscode-foreground); }
.sidebar .chart rect { fill: var(--vscode-charts-blue); }
.sidebar button.link { background: none; border: none; text-decoration: underline; }`;

describe('@herald attachments through the filter', () => {
  const references: AttachedReference[] = [
    { id: 'r0', label: 'src/billing/refunds.ts', content: REFUND_CODE },
    { id: 'r1', label: 'media/sidebar.css', content: STYLES },
    { id: 'r2', label: 'src/billing/refunds.ts:1-7', content: REFUND_CODE },
  ];

  it('keeps the relevant attachment, drops the unrelated one and the repeat, and says why', async () => {
    const filtered = await filterReferences('Why does canRefund reject a refund 31 days after purchase?', references, { aggressiveness: 'balanced', agent: 'herald-participant' }, { tokens: new TokenCounter() });
    assert.deepEqual(filtered.kept.map((reference) => reference.label), ['src/billing/refunds.ts']);
    assert.ok(filtered.note, 'a note for the user');
    assert.match(filtered.note!, /left out 2 of 3 attachments/);
    assert.match(filtered.note!, /`media\/sidebar\.css` \(not relevant enough, relevance \d\.\d of 3\)/);
    assert.match(filtered.note!, /`src\/billing\/refunds\.ts:1-7` \(repeats another attachment `src\/billing\/refunds\.ts`/);
    assert.equal(filtered.result.report.question, 'Why does canRefund reject a refund 31 days after purchase?');
  });

  it('says nothing when every attachment is kept', async () => {
    const filtered = await filterReferences('refund window days canRefund', references.slice(0, 1), { aggressiveness: 'conservative', agent: 'herald-participant' }, { tokens: new TokenCounter() });
    assert.equal(filtered.kept.length, 1);
    assert.equal(filtered.note, undefined);
  });
});
