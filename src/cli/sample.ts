/**
 * The embedded sample for `herald demo` and the README's first command: a realistic agent
 * session (OpenAI chat completions format) with a file read twice, a test run with two
 * failures among many passes, and a long server log. Generated deterministically, written
 * for Herald (not taken from any data set).
 */

const CHECKOUT_SOURCE = `import { roundCents } from './money';
import { taxRateFor } from './tax';
import type { Cart, Coupon, Receipt } from './types';

/** Sum of line prices before discounts, in cents. */
export function subtotal(cart: Cart): number {
  return cart.lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0);
}

/** The discount a coupon gives on a subtotal, never more than the subtotal. */
export function couponDiscount(coupon: Coupon | undefined, amountCents: number): number {
  if (!coupon) return 0;
  if (coupon.kind === 'percent') return Math.min(amountCents, Math.round((amountCents * coupon.value) / 100));
  return Math.min(amountCents, coupon.value);
}

/** Tax is charged on the discounted amount, at the shipping region's rate. */
export function taxFor(cart: Cart, taxableCents: number): number {
  const rate = taxRateFor(cart.shipTo.region);
  return roundCents(taxableCents * rate);
}

export function checkout(cart: Cart, coupon?: Coupon): Receipt {
  const gross = subtotal(cart);
  const discount = couponDiscount(coupon, gross);
  // BUG: tax is computed on the gross amount, not the discounted one.
  const tax = taxFor(cart, gross);
  const total = gross - discount + tax;
  return { gross, discount, tax, total, currency: cart.currency };
}

export function formatReceipt(receipt: Receipt): string {
  const money = (cents: number) => (cents / 100).toFixed(2) + ' ' + receipt.currency;
  return [
    'Subtotal: ' + money(receipt.gross),
    'Discount: -' + money(receipt.discount),
    'Tax:      ' + money(receipt.tax),
    'Total:    ' + money(receipt.total),
  ].join('\\n');
}
`;

/** A deterministic pseudo-random sequence, so the sample is the same on every run. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function testRun(): string {
  const suites = ['cart', 'money', 'tax', 'checkout', 'receipt', 'coupons', 'regions', 'currency'];
  const lines = ['> shop@2.3.0 test', '> jest --ci', ''];
  let passed = 0;
  for (const suite of suites) {
    const failing = suite === 'checkout';
    lines.push(`${failing ? 'FAIL' : 'PASS'} src/${suite}.test.ts`);
    for (let index = 1; index <= 12; index++) {
      const name = `${suite} case ${index}: handles ${['empty carts', 'one line', 'many lines', 'large quantities', 'zero prices', 'rounding'][index % 6]}`;
      if (failing && (index === 4 || index === 9)) lines.push(`  ✕ ${name} (${3 + index} ms)`);
      else {
        lines.push(`  ✓ ${name} (${1 + (index % 4)} ms)`);
        passed++;
      }
    }
  }
  lines.push('', '  ● checkout › checkout case 4: handles large quantities', '',
    '    expect(received).toBe(expected) // Object.is equality', '', '    Expected: 10692', '    Received: 10800', '',
    '      41 |     const receipt = checkout(cart, { kind: \'percent\', value: 10 });',
    '    > 42 |     expect(receipt.total).toBe(10692);', '         |                           ^', '',
    '      at Object.<anonymous> (src/checkout.test.ts:42:27)', '',
    '  ● checkout › checkout case 9: handles rounding', '',
    '    expect(received).toBe(expected) // Object.is equality', '', '    Expected: 1069', '    Received: 1080', '',
    '      88 |     const receipt = checkout(smallCart, { kind: \'fixed\', value: 100 });',
    '    > 89 |     expect(receipt.tax).toBe(1069 - 990);', '         |                         ^', '',
    '      at Object.<anonymous> (src/checkout.test.ts:89:25)', '',
    `Test Suites: 1 failed, ${suites.length - 1} passed, ${suites.length} total`,
    `Tests:       2 failed, ${passed} passed, ${passed + 2} total`, 'Snapshots:   0 total', 'Time:        2.481 s', 'Ran all test suites.');
  return lines.join('\n');
}

function serverLog(): string {
  const random = sequence(7);
  const lines: string[] = [];
  const paths = ['/health', '/api/cart', '/api/products', '/assets/app.js', '/api/session'];
  for (let index = 0; index < 600; index++) {
    const seconds = 10 * 60 + index * 2;
    const time = `2026-11-02T14:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}.${String(Math.floor(random() * 1000)).padStart(3, '0')}Z`;
    const ip = `10.0.${Math.floor(random() * 4)}.${10 + Math.floor(random() * 200)}`;
    if (index % 97 === 41) {
      lines.push(`${time} ERROR checkout-service request_id=${Math.floor(random() * 1e8).toString(16)} POST /api/checkout 500 ${700 + Math.floor(random() * 300)}ms TaxMismatchError: tax computed on gross amount for cart with coupon`);
    } else if (index % 113 === 7) {
      lines.push(`${time} WARN payment-gateway retrying charge attempt=2 latency=${1200 + Math.floor(random() * 500)}ms`);
    } else {
      const path = paths[Math.floor(random() * paths.length)]!;
      lines.push(`${time} INFO http ${ip} GET ${path} 200 ${1 + Math.floor(random() * 30)}ms`);
    }
  }
  return lines.join('\n');
}

function readCall(id: string, path: string) {
  return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path }) } }] };
}

function commandCall(id: string, command: string, thought: string) {
  return { role: 'assistant', content: thought, tool_calls: [{ id, type: 'function', function: { name: 'run_in_terminal', arguments: JSON.stringify({ command }) } }] };
}

const TOOLS = [
  { type: 'function', function: { name: 'read_file', description: 'This tool allows you to read the contents of a file in the workspace.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } },
  { type: 'function', function: { name: 'run_in_terminal', description: 'This tool allows you to run a shell command in the workspace terminal and read its output.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } } },
  { type: 'function', function: { name: 'apply_patch', description: 'Apply a unified diff to files in the workspace.', parameters: { type: 'object', properties: { patch: { type: 'string' } }, required: ['patch'] } } },
];

/** The sample session as an OpenAI chat completions request body. */
export function sampleRequest(): Record<string, unknown> {
  const edited = CHECKOUT_SOURCE.replace('const tax = taxFor(cart, gross);', 'const tax = taxFor(cart, gross - discount);').replace('  // BUG: tax is computed on the gross amount, not the discounted one.\n', '');
  return {
    model: 'gpt-4o',
    max_tokens: 4096,
    tools: TOOLS,
    messages: [
      { role: 'system', content: 'You are a coding agent working in the user\'s repository. Use the tools to read files, run commands and apply patches. Keep answers short.' },
      { role: 'user', content: 'Customers report that the checkout total is too high when a coupon is applied. Find the cause and fix it; the tests in src/checkout.test.ts should pass.' },
      readCall('call_1', 'src/checkout.ts'),
      { role: 'tool', tool_call_id: 'call_1', content: CHECKOUT_SOURCE },
      commandCall('call_2', 'npm test', 'Let me run the test suite to see what fails.'),
      { role: 'tool', tool_call_id: 'call_2', content: testRun() },
      commandCall('call_3', 'tail -n 600 logs/checkout-service.log', 'Two checkout tests fail on the total. Let me check the service log for errors around checkout.'),
      { role: 'tool', tool_call_id: 'call_3', content: serverLog() },
      { role: 'assistant', content: 'The log shows TaxMismatchError: tax is computed on the gross amount. I will fix taxFor\'s argument in checkout().', tool_calls: [{ id: 'call_4', type: 'function', function: { name: 'apply_patch', arguments: JSON.stringify({ patch: '--- a/src/checkout.ts\n+++ b/src/checkout.ts\n@@ -26,3 +26,2 @@\n-  // BUG: tax is computed on the gross amount, not the discounted one.\n-  const tax = taxFor(cart, gross);\n+  const tax = taxFor(cart, gross - discount);\n' }) } }] },
      { role: 'tool', tool_call_id: 'call_4', content: 'Patch applied to src/checkout.ts.' },
      readCall('call_5', 'src/checkout.ts'),
      { role: 'tool', tool_call_id: 'call_5', content: edited },
      commandCall('call_6', 'npm test', 'Let me re-run the tests.'),
      { role: 'tool', tool_call_id: 'call_6', content: testRun().replace('FAIL src/checkout.test.ts', 'PASS src/checkout.test.ts') },
      { role: 'user', content: 'Thanks. Does formatReceipt need a change too?' },
    ],
  };
}
