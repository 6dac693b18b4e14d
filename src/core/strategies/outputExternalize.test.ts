import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { bookkeepingKey } from '../content/bookkeeping';
import { createOutputExternalize } from './outputExternalize';
import { assertNoPromptText, createRig, partTexts, runTurns, turnBodies } from '../../../test/support/strategyTestKit';

/** A 5,000-row query result, like a database tool returns. */
function bigJson(): string {
  const rows = Array.from({ length: 5000 }, (_, index) => ({ id: index + 1, ts: `2026-06-01T00:${String(index % 60).padStart(2, '0')}:00Z`, actor: `user${index % 97}`, payload: { kind: 'click', weight: index % 13 } }));
  return JSON.stringify({ query: "SELECT * FROM events WHERE day='2026-06-01'", rowCount: rows.length, rows });
}

describe('output_externalize', () => {
  itWithData('externalizes a giant log in the fresh input: shape, head, tail, every error line folded by kind; expands back byte for byte', async () => {
    const log = fs.readFileSync(sharedPath('logs', 'Apache', 'Apache_2k.log'), 'utf8');
    const messages = [
      { role: 'system', content: 'You are an operations assistant.' },
      { role: 'user', content: 'Why does the worker fail?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat /var/log/httpd/error_log"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: log },
    ];
    const rig = createRig([createOutputExternalize()]);
    const result = await rig.run({ model: 'gpt-4o', messages });
    const text = partTexts(result.request)[3]!;
    const lines = text.split('\n');
    assert.match(lines[0]!, new RegExp(`^\\[herald: externalized ${log.length} chars, 2000 lines · retrieve hr_[a-z2-7]{16}\\]$`));
    assert.equal(lines[1], 'shape: text of 2000 lines');
    assert.equal(lines[2], log.split('\n')[0], 'the head starts with the first line');
    assert.match(text, /\nfailure, error and warning lines \(\d+, \d+ distinct; most severe first, then the rarest\):\n/);
    assert.ok(text.includes('[error] mod_jk child workerEnv in error state 6'), 'error lines are listed');
    // Every kind of error line stays in view, however far from the head and the tail it is.
    const inView = new Set(text.split('\n').map((line) => bookkeepingKey(line.replace(/ \[(?:×\d+, lines \d+–\d+|line \d+)\]$/, ''))));
    for (const line of log.split('\n').filter((entry) => entry.includes('[error]'))) assert.ok(inView.has(bookkeepingKey(line)), `error kind in view: ${line}`);
    assert.ok(text.length < 6_000, `preview stays short (${text.length} chars)`);
    assert.equal(await rig.stash.expandText(text), log);
    assertNoPromptText(result.decisions, [log.slice(0, 2000)]);
  });

  it('describes a giant JSON payload by shape in Anthropic format, and repeats the same bytes when the turn becomes history', async () => {
    const payload = bigJson();
    const messages = [
      { role: 'user', content: 'How many clicks on June 1?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'sql', input: { query: 'SELECT * FROM events' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: payload }] }] },
      { role: 'assistant', content: [{ type: 'text', text: '5000 rows.' }] },
      { role: 'user', content: 'Thanks.' },
    ];
    const rig = createRig([createOutputExternalize()]);
    const bodies = turnBodies(messages, { model: 'claude-sonnet-4', system: 'Be brief.', max_tokens: 300 });
    const fresh = partTexts((await rig.run(bodies[1])).request)[3]!;
    assert.match(fresh, /^\[herald: externalized \d+ chars, 1 lines · retrieve hr_/);
    assert.ok(fresh.includes('shape: JSON {query, rowCount, rows: array(5000) of {id, ts, actor, payload: object{2 keys}}}'), fresh.slice(0, 400));
    assert.ok(fresh.length < 1_000);
    const later = partTexts((await runTurns(rig, bodies.slice(2))).request)[3]!;
    assert.equal(later, fresh, 'the same replacement once the output is history');
    assert.equal(await rig.stash.expandText(later), payload);
  });

  it('keeps every FATAL line of a long log in view, folded by kind with its count and span, never a bare head and tail', async () => {
    const kinds = ['FATAL disk /dev/sda1 failed health check', 'FATAL alert: replica db-2 unreachable', 'ERROR request to /api/orders returned 503'];
    const lines = Array.from({ length: 2000 }, (_, index) => (index % 14 === 7 ? `2026-06-01 10:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')} ${kinds[index % 3]}` : `2026-06-01 10:00:00 INFO tick ${index} ok, queue depth ${index % 17}, worker ${index % 9}`));
    const log = lines.join('\n');
    const rig = createRig([createOutputExternalize()]);
    const messages = [
      { role: 'user', content: 'What happened overnight?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"journalctl -u app"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: log },
    ];
    const text = partTexts((await rig.run({ model: 'gpt-4o', messages })).request)[2]!;
    const problems = lines.filter((line) => !line.includes(' INFO '));
    assert.ok(problems.length > 140);
    for (const kind of kinds) {
      const count = problems.filter((line) => line.endsWith(kind)).length;
      assert.match(text, new RegExp(`${kind.replace(/[./]/g, '\\$&')} \\[×${count}, lines \\d+–\\d+\\]`), `${kind} in view with its count`);
    }
    assert.ok(text.length < log.length / 20);
    assert.equal(await rig.stash.expandText(text), log);
  });

  it('lists FATAL lines before INFO lines that merely say "error", so every alert kind fits the budget (a BGL-shaped log)', async () => {
    // Laid out as loghub's BGL log is: alert category (or -), epoch, date, node, time, node, RAS source and level, message.
    // The INFO "error corrected" lines come first and are many kinds (one per node), as in the real log.
    const node = (index: number): string => `R${String(index % 64).padStart(2, '0')}-M${index % 2}-N${index % 16}-C:J${String(index % 18).padStart(2, '0')}-U${index % 2 ? '11' : '01'}`;
    const alerts = ['KERNDTLB', 'KERNSTOR', 'APPSEV', 'KERNMNTF'];
    const fatal = ['data TLB error interrupt', 'data storage interrupt', 'ciod: Error reading message prefix after LOGIN_MESSAGE on CioStream socket to 172.16.96.116:33569', 'Lustre mount FAILED : bglio11 : block_id : location'];
    const lines = Array.from({ length: 2000 }, (_, index) => {
      const epoch = 1117838570 + index * 17;
      const where = node(index);
      const stamp = `2005-06-03-15.${String(Math.floor(index / 60) % 60).padStart(2, '0')}.${String(index % 60).padStart(2, '0')}.675872`;
      if (index >= 1200 && index % 8 === 3) return `${alerts[(index >> 3) % 4]} ${epoch} 2005.06.03 ${where} ${stamp} ${where} RAS KERNEL FATAL ${fatal[(index >> 3) % 4]}`;
      if (index % 3 !== 0) return `- ${epoch} 2005.06.03 ${where} ${stamp} ${where} RAS KERNEL INFO instruction cache parity error corrected`;
      return `- ${epoch} 2005.06.03 ${where} ${stamp} ${where} RAS KERNEL INFO generating core.${index}`;
    });
    const log = lines.join('\n');
    const rig = createRig([createOutputExternalize()]);
    const messages = [
      { role: 'user', content: 'Which hardware alerts fired, and when?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat bgl.log"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: log },
    ];
    const text = partTexts((await rig.run({ model: 'gpt-4o', messages })).request)[2]!;
    const fatalLines = lines.filter((line) => line.includes(' FATAL '));
    assert.ok(fatalLines.length >= 90 && lines.filter((line) => line.includes('parity error corrected')).length > 1000);
    // Every FATAL line is in view: its message, and its node either on its own line or listed with its template's count.
    const listing = text.slice(text.indexOf('failure, error and warning lines'));
    for (const line of fatalLines) {
      const [, , , where, , , , , , ...message] = line.split(' ');
      const shown = listing.split('\n').find((entry) => entry.includes(` FATAL ${message.join(' ')}`) && entry.includes(where!));
      assert.ok(shown !== undefined, `FATAL line in view: ${line}`);
    }
    const info = listing.indexOf('parity error corrected');
    assert.ok(info === -1 || listing.indexOf(' FATAL ', info) === -1, 'FATAL lines are listed before INFO lines that mention an error');
    assert.equal(await rig.stash.expandText(text), log);
  });

  it('lists a giant JSON payload\'s failed rows in its preview', async () => {
    const orders = Array.from({ length: 3000 }, (_, index) => ({ id: 50_000 + index, status: index === 2417 ? 'failed' : 'shipped', reason: index === 2417 ? 'card declined by issuer' : '', total: 20 + (index % 7) }));
    const payload = JSON.stringify(orders, null, 2);
    const rig = createRig([createOutputExternalize()]);
    const messages = [
      { role: 'user', content: 'Which orders failed and why?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'orders', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: payload },
    ];
    const text = partTexts((await rig.run({ model: 'gpt-4o', messages })).request)[2]!;
    assert.ok(text.includes('"id":52417') && text.includes('card declined by issuer'), 'the failed order deep in the array is in view');
    assert.ok(text.length < 3_000);
    assert.equal(await rig.stash.expandText(text), payload);
  });

  it('leaves outputs under the limit and outputs already behind a marker alone', async () => {
    const rig = createRig([createOutputExternalize()], { output_externalize: { maxChars: 100 } });
    const small = 'x'.repeat(100);
    const marked = `${'y'.repeat(200)}\n[herald: 12 lines elided · retrieve hr_aaaaaaaaaaaaaaaa]`;
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'x', arguments: '{}' } }, { id: 'b', type: 'function', function: { name: 'x', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'a', content: small },
      { role: 'tool', tool_call_id: 'b', content: marked },
    ];
    const result = await rig.run({ model: 'gpt-4o', messages });
    assert.deepEqual(partTexts(result.request).slice(2), [small, marked]);
    assert.equal(result.decisions[0]!.status, 'unchanged');
  });
});
