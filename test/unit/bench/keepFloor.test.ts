import { strict as assert } from 'node:assert';
import { parseRequest } from '../../../src/core/chat';
import { messageText, type ChatMessage } from '../../../src/core/chat/types';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { factRecall } from '../../support/factRecall';
import { floorOf, floorRequest } from '../../support/keepFloor';

const TASK = 'Fix the rounding of refunds in billing/refund.py.';
const THOUGHT = 'THOUGHT: I wonder where the rounding happens; it could be anywhere in the billing package.\n\n```bash\ngrep -rn round billing/\n```';
const LISTING = Array.from({ length: 30 }, (_, index) => `billing/module_${index}.py:${index + 10}: total = round(amount, 2)`).join('\n');
const TRACEBACK = ['Traceback (most recent call last):', '  File "repro.py", line 3, in <module>', 'AssertionError: 999 != 1000'].join('\n');

function request(messages: { role: string; content: string }[]) {
  return parseRequest({ model: 'gpt-4o', messages });
}

const conversation = [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: TASK },
  { role: 'assistant', content: THOUGHT },
  { role: 'user', content: `<returncode>0</returncode>\n<output>\n${LISTING}\n</output>` },
  { role: 'assistant', content: 'THOUGHT: Running the reproduction.\n\n```bash\npython repro.py\n```' },
  { role: 'user', content: `<returncode>1</returncode>\n<output>\n${TRACEBACK}\n</output>` },
  { role: 'assistant', content: 'THOUGHT: refund_total in billing/module_7.py drops a cent.\n\n```bash\nsed -n 1,20p billing/module_7.py\n```' },
  { role: 'user', content: '<returncode>0</returncode>\n<output>\nfresh output\n</output>' },
];

describe('bench support: the keep-rule floor and fact recall', () => {
  it('keeps the task, the actions, the failure lines and the fresh input; drops prose and passing output', () => {
    const texts = floorRequest(request(conversation), { failures: 'failure-lines', markers: false }).map(messageText);
    assert.equal(texts[1], TASK);
    assert.equal(texts[2], '```bash\ngrep -rn round billing/\n```', 'the action stays, the musing goes');
    assert.ok(!texts[3]!.includes('module_12'), 'a passing observation in history goes');
    assert.ok(texts[5]!.includes('AssertionError: 999 != 1000') && !texts[5]!.includes('File "repro.py"'), 'failure lines only');
    assert.equal(texts[7], conversation[7]!.content, 'the fresh input is whole');
    const whole = floorRequest(request(conversation), { failures: 'whole-output', markers: true }).map(messageText);
    assert.ok(whole[5]!.includes(TRACEBACK), 'the stricter reading keeps the failed output whole');
    assert.match(whole[3]!, /^\[herald: .* · retrieve hr_[a-z]{16}\]$/, 'and pays one marker for a dropped observation');
    assert.equal(whole[1], TASK, 'no marker where nothing was dropped');
    const conclusions = floorRequest(request(conversation), { failures: 'failure-lines', markers: true, prose: 'conclusions' }).map(messageText);
    assert.ok(conclusions[6]!.startsWith('THOUGHT: refund_total in billing/module_7.py drops a cent.'), 'the conclusion before the action stays');
    assert.ok(conclusions[6]!.includes('sed -n 1,20p billing/module_7.py'));
    const musing = 'THOUGHT: I wonder where the rounding happens. Maybe in the views. Maybe in a helper. Let me search the package.\n\n```bash\ngrep -rn round billing/\n```';
    const withMusing = conversation.map((message, index) => (index === 2 ? { ...message, content: musing } : message));
    const trimmed = messageText(floorRequest(request(withMusing), { failures: 'failure-lines', markers: true, prose: 'conclusions' })[2]!);
    assert.ok(!trimmed.includes('I wonder where') && trimmed.includes('Let me search the package.') && trimmed.includes('grep -rn round billing/'), trimmed);
  });

  it('prices the floor below the original, with the stricter reading in between', () => {
    const tokens = new TokenCounter();
    const turns = [4, 6, 8].map((end) => request(conversation.slice(0, end)));
    const original = turns.reduce((sum, turn) => sum + tokens.countRequest(turn), 0);
    const lines = floorOf(turns, tokens, { failures: 'failure-lines', markers: false });
    const whole = floorOf(turns, tokens, { failures: 'whole-output', markers: true });
    assert.ok(lines.tokens < whole.tokens && whole.tokens < original, `${lines.tokens} < ${whole.tokens} < ${original}`);
    assert.ok(lines.cachedCost > 0);
  });

  it('counts the facts a reply took from history and whether the optimized history shows them', () => {
    const original = request(conversation.slice(0, 4)).messages;
    const reply: ChatMessage = { role: 'assistant', parts: [{ type: 'text', text: 'billing/module_7.py and billing/module_12.py both round; refund_total is new.' }], contentShape: 'string' };
    // The two paths stood in the listing, which is the fresh input here: not counted.
    assert.deepEqual(factRecall(original, original, reply), { used: 0, visible: 0 });
    const later = request(conversation.slice(0, 6)).messages;
    const masked = later.map((message, index) => (index === 3 ? { ...message, parts: [{ type: 'text' as const, text: '[masked]' }] } : message));
    assert.deepEqual(factRecall(later, later, reply), { used: 2, visible: 2 });
    assert.deepEqual(factRecall(later, masked, reply), { used: 2, visible: 0 });
  });
});
