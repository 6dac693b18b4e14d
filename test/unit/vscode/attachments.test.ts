import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { attachmentBudget, prepareAttachments, type AttachedReference } from '../../../src/vscode/knowledge/attachments';
import { itWithData, sharedPath } from '../../support/sharedData';

const PAYMENTS = `class RefundError(Exception):
    pass


def refund(order, amount):
    remaining = order.total - order.refunded
    if amount > remaining:
        raise RefundError(f"refund {amount} exceeds remaining {remaining}")
    order.refunded += amount
    return order
`;

/** The text a marker stands for put back: what the model or the user gets with the handle. */
async function expand(text: string, stash: Stash): Promise<string> {
  let result = text;
  for (const match of text.matchAll(/\[herald: [^\]\n]*? · retrieve (hr_[a-z2-7]{16})\]/g)) {
    const original = await stash.retrieve(match[1]!);
    assert.ok(original !== undefined, `${match[1]} is not in the stash`);
    result = result.replace(match[0], original);
  }
  return result;
}

describe('@herald attachments: every one is sent', () => {
  const tokens = new TokenCounter();
  const newStash = (): Stash => new Stash({ store: new MemoryBlobStore(), key: Buffer.alloc(32, 7) });

  it('sends an attachment whole whatever its relevance, and says nothing (the issue: payments.py was left out as "not relevant enough")', () => {
    const references: AttachedReference[] = [
      { label: 'src/payments.py', content: PAYMENTS },
      { label: 'media/sidebar.css', content: '.sidebar { display: flex; }\n' },
    ];
    const prepared = prepareAttachments('What went wrong in this log?', references, attachmentBudget(128_000), { tokens, stash: newStash() });
    assert.deepEqual(prepared.sent.map((attachment) => [attachment.label, attachment.content]), references.map((reference) => [reference.label, reference.content]));
    assert.equal(prepared.note, undefined);
  });

  it('has a budget of half the window, at most 32,000 tokens', () => {
    assert.equal(attachmentBudget(8_000), 4_000);
    assert.equal(attachmentBudget(1_000_000), 32_000);
  });

  itWithData('digests a 2,000-line log attached with a small file over the budget, keeps the small file whole, and every left-out line comes back by its handle', async () => {
    const log = fs.readFileSync(sharedPath('logs', 'Zookeeper', 'Zookeeper_2k.log'), 'utf8');
    const stash = newStash();
    const references: AttachedReference[] = [
      { label: 'logs/zookeeper.log', content: log },
      { label: 'src/payments.py', content: PAYMENTS },
    ];
    const budget = 4_000;
    const question = 'Why did the LearnerHandler shut down with an unexpected exception?';
    const prepared = prepareAttachments(question, references, budget, { tokens, stash });
    const [digested, small] = prepared.sent;
    assert.equal(small!.content, PAYMENTS, 'the small attachment goes whole');
    assert.ok(digested!.digest !== undefined, 'the log is digested');
    assert.ok(digested!.tokensBefore > budget && digested!.tokensAfter + small!.tokensAfter <= budget * 1.1, `${digested!.tokensBefore} → ${digested!.tokensAfter} tokens for a budget of ${budget}`);
    assert.match(digested!.content, /LearnerHandler@562\] - Unexpected exception causing shutdown/);
    await stash.flush();
    const restored = await expand(digested!.content, stash);
    if (digested!.digest === 'lines') assert.equal(restored, log, 'the lines left out come back in place, byte for byte');
    else assert.ok(restored.includes(log), 'the whole original comes back by its handle');
    assert.match(prepared.note!, /sent all 2 attachments; `logs\/zookeeper\.log` as a digest for your question \([\d,]+ → [\d,]+ tokens\)\. The rest is one retrieve away: `hr_/);
  });

  it('digests by lines when the cleaners cannot shorten a text, keeping the lines the question names', async () => {
    const stash = newStash();
    const lines = Array.from({ length: 3_000 }, (_, index) => (index === 2_222 ? 'The refund limit is the remaining balance of the order.' : `Paragraph ${index} of the handbook talks about office plants and parking.`));
    const text = lines.join('\n');
    const prepared = prepareAttachments('what is the refund limit?', [{ label: 'handbook.txt', content: text }], 3_000, { tokens, stash });
    const [sent] = prepared.sent;
    assert.equal(sent!.digest, 'lines');
    assert.match(sent!.content, /The refund limit is the remaining balance/);
    assert.ok(sent!.tokensAfter < 3_000 * 1.1, `${sent!.tokensAfter} tokens`);
    await stash.flush();
    assert.equal(await expand(sent!.content, stash), text);
  });
});
