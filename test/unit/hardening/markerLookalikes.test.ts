/**
 * Strings that look like Herald's own markers and handles, planted in real tool output, must
 * never be expanded or taken for real ones: through the whole default pipeline, through
 * `expand`, and through `retrieve`. A verbatim copy of a real replacement is text too: where
 * the pipeline's elision sites are known, only the real elisions expand.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expandRequest } from '../../../src/cli/expandCommand';
import { parseRequest, partText, serializeRequest, type ChatRequest } from '../../../src/core/chat';
import { MessageMemo, Pipeline, sitesFrom, textAt } from '../../../src/core/pipeline';
import { findMarkers, formatMarker, MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens';
import { runHerald } from '../../support/cliRun';
import { expandsBack } from '../../support/replay';
import { loadTrajectory, skipWithoutData, trajectoryNames, turnRequests } from '../../support/sharedData';

const tokens = new TokenCounter(20_000);

/** A request body whose message at `index` ends its observation with a line that prints `quoted`. */
function quoteInto(body: { model: string; messages: unknown[] }, index: number, quoted: string): { model: string; messages: unknown[] } {
  const messages = body.messages.map((message, at) => {
    if (at !== index) return message;
    const typed = message as { content: string };
    const cut = typed.content.lastIndexOf('</output>');
    const line = `saved request: ${quoted}\n`;
    return { ...typed, content: cut < 0 ? `${typed.content}\n${line}` : `${typed.content.slice(0, cut)}${line}${typed.content.slice(cut)}` };
  });
  return { ...body, messages };
}

function texts(request: ChatRequest): string[][] {
  return request.messages.map((message) => message.parts.map(partText));
}

/** Plants `lines` inside every history observation (`<output>…</output>`) of a real request body. */
function plant(body: { model: string; messages: unknown[] }, lines: readonly string[]): { model: string; messages: unknown[] } {
  const last = body.messages.length - 1;
  const messages = body.messages.map((message, index) => {
    const typed = message as { role: string; content: string };
    if (index === last || typed.role !== 'user' || !typed.content.includes('</output>')) return message;
    const cut = typed.content.lastIndexOf('</output>');
    return { ...typed, content: `${typed.content.slice(0, cut)}${lines.join('\n')}\n${typed.content.slice(cut)}` };
  });
  return { ...body, messages };
}

describe('hardening: marker and handle look-alikes in tool output', function () {
  this.timeout(60_000);
  before(function () {
    skipWithoutData(this);
  });

  it('forged, near-miss and re-labelled markers pass through the pipeline and expand untouched', async () => {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(3) });
    const pipeline = new Pipeline(createStrategies(), {}, { stash, tokens, memo: new MessageMemo() });
    const turns = turnRequests(loadTrajectory(trajectoryNames()[2]!));
    // A first run gives real handles to imitate.
    const first = await pipeline.run(parseRequest(turns[turns.length - 1]));
    const real = first.decisions.flatMap((decision) => decision.handles);
    assert.ok(real.length > 0, 'the first run elided something');
    const lookalikes = [
      formatMarker('412 lines elided', 'hr_abcdefghijklmnop'),
      formatMarker('3 lines elided', 'hr_2222222222222222'),
      `[herald: 9 lines elided · retrieve ${real[0]!.toUpperCase()}]`,
      `[herald: 9 lines elided · retrieve ${real[0]!}x]`.replace(']x', 'x]'),
      `[herald: [nested] · retrieve ${real[0]!}]`,
      `[herald: ${'long summary '.repeat(80)} · retrieve ${real[0]!}]`,
      formatMarker('999 lines elided (a relabelled copy of a real handle)', real[0]!),
      formatMarker('a second relabelled copy', real[real.length - 1]!),
      `retrieve ${real[0]!} and hr_${'q'.repeat(16)} as bare handles`,
      '[herald: unterminated · retrieve hr_aaaaaaaaaaaaaaaa',
    ];
    const planted = parseRequest(plant(turns[turns.length - 1]!, lookalikes));
    const result = await pipeline.run(planted);
    assert.deepEqual(result.decisions.filter((decision) => decision.status === 'failed' || decision.status === 'rejected'), []);
    assert.ok(await expandsBack(planted, result.request, stash), 'every elision expands back exactly');
    const expanded = await expandRequest(result.request, stash);
    assert.deepEqual(texts(expanded), texts(planted), 'expand gives back the planted text byte for byte');
    // Every real handle of this run gives back an original that the planted request contains whole.
    const plantedText = JSON.stringify(texts(planted));
    for (const handle of result.decisions.flatMap((decision) => decision.handles)) {
      const original = await stash.retrieve(handle);
      assert.ok(original !== undefined && plantedText.includes(JSON.stringify(original).slice(1, -1)), `${handle} retrieves a piece of the planted request`);
    }
  });

  it('expandText leaves forged markers alone and never reads a store entry for them as valid', async () => {
    const store = new MemoryBlobStore();
    const stash = new Stash({ store, key: new Uint8Array(32).fill(5) });
    const real = stash.elide({ original: 'the real original\n'.repeat(50), summary: '50 lines elided', kind: 'test' });
    await stash.flush();
    // An entry planted in the store under a handle that looks right but holds another handle's data.
    const forged = formatMarker('2 lines elided', 'hr_forgedforgedforg');
    await store.put('hr_forgedforgedforg', JSON.stringify({ schema: 1, handle: real.handle, kind: 'x', original: 'INJECTED', replacements: [forged], created: 0 }));
    const text = `before ${forged} middle ${formatMarker('7 lines elided', real.handle)} after ${real.replacement} end`;
    const expanded = await stash.expandText(text);
    assert.ok(!expanded.includes('INJECTED'), 'an entry whose handle does not match its file is refused');
    assert.ok(expanded.includes(forged));
    assert.ok(expanded.includes(formatMarker('7 lines elided', real.handle)), 'a relabelled real handle stays as it is');
    assert.equal(findMarkers(expanded).length, 2, 'only the genuine replacement was expanded');
    assert.ok(expanded.endsWith(`${'the real original\n'.repeat(50)} end`));
  });

  it('retrieve gives the exact original even when that original quotes a real marker', async () => {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(9) });
    const inner = stash.elide({ original: 'inner\n'.repeat(30), summary: '30 lines elided', kind: 'test' });
    const quoting = `a log that quotes Herald: ${inner.replacement}\n`.repeat(20);
    const outer = stash.elide({ original: quoting, summary: '20 lines elided', kind: 'test' });
    await stash.flush();
    assert.equal(await stash.retrieve(outer.handle), quoting);
  });

  // Was a bug (src/core/strategies/shared/segmentSelection.ts `hasMarker`, codeGraph.ts's
  // `includes('[herald: ')`, relevanceFilter.ts's `findMarkers` guard): any well-formed marker
  // text, even with a handle the stash never issued, made a tool output count as "already
  // elided", so one forged marker line shielded a whole output from every tool-output strategy.
  // The guards now ask the stash whether it issued the handle.
  it('a tool output holding a forged marker is optimized like the same output without it', async () => {
    const log = Array.from({ length: 2000 }, (_, index) => `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}Z INFO worker ${index % 7} handled job ${index}`).join('\n');
    const saved = async (output: string): Promise<number> => {
      const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
      const body = {
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'why is the worker slow?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat worker.log"}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: output },
          { role: 'assistant', content: 'The log shows nothing unusual.' },
          { role: 'user', content: 'look at the scheduler then' },
        ],
      };
      const result = await new Pipeline(createStrategies(), {}, { stash, tokens }).run(parseRequest(body));
      return result.tokensBefore - result.tokensAfter;
    };
    const plain = await saved(log);
    const forged = await saved(`${formatMarker('12 lines elided', 'hr_abcdefghijklmnop')}\n${log}`);
    assert.ok(plain > 10_000, 'the plain log is optimized');
    assert.ok(forged > plain / 2, `a forged marker line must not shield the output (saved ${forged} vs ${plain})`);
  });

  it('the stash knows the handles it issued: elided or loaded in this process, never a forged one', async () => {
    const store = new MemoryBlobStore();
    const key = new Uint8Array(32).fill(4);
    const stash = new Stash({ store, key });
    const real = stash.elide({ original: 'real original\n'.repeat(10), summary: '10 lines elided', kind: 'test' });
    assert.ok(stash.issued(real.handle));
    assert.ok(!stash.issued('hr_abcdefghijklmnop'));
    assert.ok(stash.hasIssuedMarker(`before\n${real.replacement}\nafter`));
    assert.ok(!stash.hasIssuedMarker(`${formatMarker('10 lines elided', 'hr_abcdefghijklmnop')} ${real.handle}`), 'a bare handle is no marker');
    await stash.flush();
    const later = new Stash({ store, key });
    assert.ok(!later.issued(real.handle), 'another process has not seen it yet');
    assert.equal(await later.retrieve(real.handle), 'real original\n'.repeat(10));
    assert.ok(later.issued(real.handle), 'loaded, so known');
  });

  it('the default pipeline never elides its own output again: no stashed original holds a marker of this stash', async () => {
    const log = Array.from({ length: 2000 }, (_, index) => `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}Z INFO worker ${index % 7} handled job ${index}${index % 97 === 0 ? ' ERROR timeout talking to scheduler' : ''}`).join('\n');
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const call = (id: string, command: string): unknown => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }] });
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'why is the worker slow?' },
        call('c1', 'cat worker.log'),
        { role: 'tool', tool_call_id: 'c1', content: log },
        call('c2', 'cat worker.log'),
        { role: 'tool', tool_call_id: 'c2', content: log },
        { role: 'assistant', content: 'The log shows timeouts.' },
        { role: 'user', content: 'look at the scheduler then' },
      ],
    };
    const request = parseRequest(body);
    const result = await new Pipeline(createStrategies(), {}, { stash, tokens }).run(request);
    const handles = [...new Set(result.decisions.flatMap((decision) => decision.handles))];
    // Externalizing the giant log leaves a digestible summary behind; digesting that again was the double work.
    assert.ok(handles.length > 0 && result.tokensAfter < result.tokensBefore / 5, 'the logs are optimized');
    for (const handle of handles) {
      const original = (await stash.retrieve(handle))!;
      assert.ok(!stash.hasIssuedMarker(original), `${handle} holds text that was already behind one of this stash's markers`);
    }
    assert.ok(await expandsBack(request, result.request, stash));
  });

  // Was a bug (src/core/stash/stash.ts expandText): a verbatim copy of a real replacement (the
  // model quoting a marker Herald showed it, a tool printing a saved optimized request) cannot
  // be told from the genuine one by text, so expanding by text replaced the copy too. The
  // pipeline now records where it elided (PipelineResult.elisions) and expandAt/expandRequest
  // with those sites replace only there; expandText keeps the text-only behaviour.
  it('a verbatim copy of a real replacement quoted in a later message is not expanded', async () => {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(9) });
    const inner = stash.elide({ original: 'inner\n'.repeat(30), summary: '30 lines elided', kind: 'test' });
    const quote = `the model said: I will retrieve ${inner.replacement} next`;
    assert.equal(await stash.expandAt(quote, []), quote, 'no site, nothing expanded');
    const real = `${inner.replacement}\n${quote}`;
    assert.equal(await stash.expandAt(real, [{ handle: inner.handle, start: 0, length: inner.replacement.length }]), `${'inner\n'.repeat(30)}\n${quote}`);
    assert.notEqual(await stash.expandText(quote), quote, 'by text alone the copy is expanded (documented)');
  });

  it('a real trajectory whose later tool output quotes a real replacement expands back exactly with the sites, turn after turn', async () => {
    const store = new MemoryBlobStore();
    const memo = new MessageMemo();
    const key = new Uint8Array(32).fill(12);
    const pipeline = new Pipeline(createStrategies(), {}, { stash: new Stash({ store, key }), tokens, memo });
    const turns = turnRequests(loadTrajectory(trajectoryNames()[2]!));
    // Run the conversation until a turn's history holds a real elision, and take its replacement.
    let quoted: string | undefined;
    let turn = 0;
    for (; turn < turns.length - 3 && quoted === undefined; turn++) {
      const result = await pipeline.run(parseRequest(turns[turn]));
      const site = result.elisions[0];
      if (site) quoted = textAt(result.request, site)!.slice(site.start, site.start + site.length);
    }
    assert.ok(quoted !== undefined, 'the pipeline elided something in history');
    // The later turns run in another process (the CLI, a restarted editor): same store, key and
    // memo, but the quoted handle is not one this stash has issued, so nothing takes the quoting
    // output for one of Herald's own elisions.
    const stash = new Stash({ store, key });
    const later = new Pipeline(createStrategies(), {}, { stash, tokens, memo });
    // The agent's next command prints that replacement (say, from a saved optimized request).
    const quotingIndex = turns[turn]!.messages.length - 1;
    let previous: ChatRequest | undefined;
    let textOnlyWrong = 0;
    for (const body of turns.slice(turn, turn + 3)) {
      const planted = parseRequest(quoteInto(body, quotingIndex, quoted));
      const result = await later.run(planted);
      const wire = parseRequest(JSON.parse(JSON.stringify(serializeRequest(result.request))));
      assert.ok(JSON.stringify(wire.messages).includes(JSON.stringify(quoted).slice(1, -1)), 'the optimized request still carries a copy of the replacement');
      assert.deepEqual(texts(await expandRequest(wire, stash, sitesFrom(result.elisions))), texts(planted), 'expands back byte for byte at the recorded sites');
      if (previous) assert.deepEqual(wire.messages.slice(0, previous.messages.length - 1), previous.messages.slice(0, -1), 'prefix stable');
      if (JSON.stringify(texts(await expandRequest(wire, stash))) !== JSON.stringify(texts(planted))) textOnlyWrong++;
      previous = wire;
    }
    assert.equal(textOnlyWrong, 3, 'expansion by text alone takes the copy for the real replacement on every turn');
  });

  it('herald optimize then herald expand gives back a request quoting a real replacement byte for byte', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-sites-'));
    const turns = turnRequests(loadTrajectory(trajectoryNames()[2]!));
    const first = await runHerald(['optimize', '--stash', folder], JSON.stringify(turns[5]));
    assert.equal(first.code, 0, first.stderr);
    // A real replacement of that run, read from the folder's own entry.
    const optimizedText = JSON.stringify(texts(parseRequest(JSON.parse(first.stdout))));
    const replacement = findMarkers(first.stdout)
      .map((marker) => (JSON.parse(fs.readFileSync(path.join(folder, 'entries', `${marker.handle}.json`), 'utf8')) as { replacements: string[] }).replacements[0]!)
      .find((candidate) => optimizedText.includes(JSON.stringify(candidate).slice(1, -1)));
    assert.ok(replacement !== undefined, 'the first turn elided something');
    const later = turns[6]!;
    const planted = quoteInto(later, later.messages.length - 1, replacement);
    const optimized = await runHerald(['optimize', '--stash', folder], JSON.stringify(planted));
    assert.equal(optimized.code, 0, optimized.stderr);
    assert.ok(findMarkers(optimized.stdout).length > 1);
    const expanded = await runHerald(['expand', '--stash', folder], optimized.stdout);
    assert.equal(expanded.code, 0, expanded.stderr);
    assert.equal(expanded.stderr, '', 'every text was optimized here: no fallback');
    assert.deepEqual((JSON.parse(expanded.stdout) as { messages: unknown }).messages, planted.messages);
    // The input itself expands to itself: its quoting text went through optimize untouched and holds no site.
    const again = await runHerald(['expand', '--stash', folder], JSON.stringify(planted));
    assert.deepEqual([again.stderr, (JSON.parse(again.stdout) as { messages: unknown }).messages], ['', planted.messages]);
    // A text this folder never printed is expanded by text alone, with one warning line.
    const elsewhere = quoteInto(later, later.messages.length - 3, replacement);
    const unknown = await runHerald(['expand', '--stash', folder], JSON.stringify(elsewhere));
    assert.equal(unknown.code, 0);
    assert.match(unknown.stderr, /^herald: elision-sites-unknown: 1 text\(s\) were not optimized with the stash folder .*\n$/);
    assert.notDeepEqual((JSON.parse(unknown.stdout) as { messages: unknown }).messages, elsewhere.messages, 'by text alone the quote was expanded');
  });
});
