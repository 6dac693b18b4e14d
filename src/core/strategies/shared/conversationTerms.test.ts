import { strict as assert } from 'node:assert';
import { Deadline, withDeadline } from '../../pipeline/deadline';
import { termUsage } from './conversationTerms';
import { termsIn } from './terms';

/** A deadline that never passes and counts how often it was looked at. */
class CountingDeadline extends Deadline {
  looks = 0;
  constructor() {
    super(Infinity);
  }
  override check(): void {
    this.looks++;
  }
}

describe('termUsage', () => {
  it('finds the terms a later reply reuses, and none it does not', () => {
    const texts = ['run the tests', 'FAILED test_checkout_total in billing/cart.py line 42', 'the total in billing/cart.py is wrong'];
    const replies = ['', '', texts[2]!];
    const output = { messageIndex: 1, text: texts[1]! };
    const usage = termUsage(texts, replies, [output])!.get(output)!;
    assert.deepEqual([...usage.reused], ['billing/cart.py']);
    assert.equal(usage.introduced, 3, 'failed, test_checkout_total, billing/cart.py');
  });

  it('looks at the deadline every few thousand terms inside one output of random ids, not only between messages', () => {
    // One output of 200,000 distinct ids: between two messages this is a quarter of a second of work.
    const ids = Array.from({ length: 200_000 }, (_, index) => `id_${index.toString(36)}x`).join(' ');
    const texts = ['list them', ids, `the first is id_0x and the last ${'id_' + (199_999).toString(36)}x`];
    const output = { messageIndex: 1, text: ids };
    const deadline = new CountingDeadline();
    termUsage(texts, ['', '', texts[2]!], [output], deadline);
    // Forward, wanted, backward and reuse each walk the 200,000 terms: about 24 looks apiece.
    assert.ok(deadline.looks >= 60, `looked ${deadline.looks} times`);
  });

  it('reads one text\'s terms with the running strategy\'s deadline looked at every few thousand matches', () => {
    const text = Array.from({ length: 100_000 }, (_, index) => `key_${index.toString(36)}q`).join(' ');
    const deadline = new CountingDeadline();
    const terms = withDeadline(deadline, () => termsIn(text));
    assert.equal(terms.size, 100_000);
    assert.ok(deadline.looks >= 20, `looked ${deadline.looks} times`);
  });
});
