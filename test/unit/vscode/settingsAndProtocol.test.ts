import { strict as assert } from 'node:assert';
import { readSettings } from '../../../src/vscode/settings/settingsSchema';
import { parseHostMessage, parseWebviewMessage } from '../../../src/webview/protocol';

describe('settings', () => {
  it('gives every setting its default when nothing is set', () => {
    const { settings, problems } = readSettings(() => undefined);
    assert.deepEqual(problems, []);
    assert.equal(settings.enabled, true);
    assert.equal(settings.aggressiveness, 'balanced');
    assert.equal(settings.libraryFolder, '.herald');
    assert.equal(settings.judgeMode, 'off');
    assert.equal(settings.stashTtlDays, 7);
    assert.equal(settings.retrieveRounds, 4);
    assert.deepEqual(settings.endpoints, []);
  });

  it('reads the dotted keys VS Code uses, and replaces a bad value by its default with a message', () => {
    const values: Record<string, unknown> = { 'library.folder': 'docs/library', 'stash.ttlDays': -3, aggressiveness: 'ruthless', strategy: { context_dedupe: { enabled: false, options: { keepRecentTurns: 5 } } } };
    const { settings, problems } = readSettings((key) => values[key]);
    assert.equal(settings.libraryFolder, 'docs/library');
    assert.equal(settings.stashTtlDays, 7);
    assert.equal(settings.aggressiveness, 'balanced');
    assert.deepEqual(settings.strategies.context_dedupe, { enabled: false, options: { keepRecentTurns: 5 } });
    assert.equal(problems.length, 2);
    assert.ok(problems.some((problem) => problem.startsWith('herald.stash.ttlDays:')));
    assert.ok(problems.some((problem) => problem.startsWith('herald.aggressiveness:')));
  });

  it('keeps valid endpoints with defaults applied, and names each one it ignores', () => {
    const endpoints = [
      { name: 'local', kind: 'openai', url: 'http://localhost:11434/v1', model: 'llama3' },
      { name: 'local', kind: 'openai', url: 'http://localhost:1/v1', model: 'other' },
      { name: 'broken', kind: 'gemini', url: 'not a url', model: '' },
      { name: 'claude', kind: 'anthropic', url: 'https://api.anthropic.com/v1', model: 'claude-x', apiKey: 'must not live here' },
    ];
    const { settings, problems } = readSettings((key) => (key === 'endpoints' ? endpoints : undefined));
    assert.deepEqual(settings.endpoints, [{ name: 'local', kind: 'openai', url: 'http://localhost:11434/v1', model: 'llama3', maxInputTokens: 128000, maxOutputTokens: 4096, toolCalling: true, imageInput: false }]);
    assert.equal(problems.length, 3);
    assert.match(problems[0]!, /endpoints\[1\].*used twice/);
    assert.match(problems[1]!, /endpoints\[2\]/);
    assert.match(problems[2]!, /endpoints\[3\]/, 'a key in settings is refused: keys belong in secret storage');
  });
});

describe('webview protocol', () => {
  const request = { id: 'r1', startedAt: 1, model: 'm', status: 'optimized', origin: 'caller', tokensBefore: 10, tokensAfter: 5, savedTokens: 5, savedPercent: 50, rounds: 1, billing: 'premium-requests', premiumRequests: 1, optimizeMs: 1, totalMs: 2, retrievals: 0, replayedMessages: 0, decisions: [] };
  const totals = { requests: 1, ownCalls: 0, tokensBefore: 10, tokensAfter: 5, tokensSaved: 5, savedPercent: 50, retrievals: 0, failures: 0, cancelled: 0, premiumRequests: 1, billedUsd: 0, unoptimizedUsd: 0, pricedRequests: 0 };
  const extras = { multiplierUrl: 'https://example.invalid', pricesChecked: '2026-12-01' };

  it('accepts the messages each side sends', () => {
    assert.ok(parseHostMessage({ type: 'decisions', requests: [request], totals, optimizerEnabled: true, ...extras }));
    assert.ok(parseHostMessage({ type: 'decisions', requests: [{ ...request, status: 'cancelled', billing: 'tokens', usage: { inputTokens: 1, cacheReadTokens: 2, cacheWriteTokens: 0, outputTokens: 3 }, cost: { priceKey: 'gpt-4.1', billedUsd: 0.1, unoptimizedUsd: 0.2 } }], totals, optimizerEnabled: true, ...extras }));
    assert.ok(parseWebviewMessage({ type: 'command', command: 'enable-models' }));
    assert.ok(parseHostMessage({ type: 'library', library: { folder: '.herald', available: false, pages: [], activity: [] } }));
    assert.deepEqual(parseWebviewMessage({ type: 'open-handle', handle: 'hr_abcdefghijklmnop' }), { type: 'open-handle', handle: 'hr_abcdefghijklmnop' });
    assert.ok(parseWebviewMessage({ type: 'command', command: 'export-report' }));
    assert.ok(parseWebviewMessage({ type: 'ready' }));
  });

  it('rejects anything else', () => {
    assert.equal(parseHostMessage({ type: 'decisions', requests: [{ ...request, status: 'weird' }], totals, optimizerEnabled: true, ...extras }), undefined);
    assert.equal(parseHostMessage({ type: 'decisions', requests: [{ ...request, billing: 'gold' }], totals, optimizerEnabled: true, ...extras }), undefined);
    assert.equal(parseHostMessage({ type: 'unknown' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'open-handle', handle: '../../etc/passwd' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'command', command: 'workbench.action.terminal.new' }), undefined);
    assert.equal(parseWebviewMessage('ready'), undefined);
    assert.equal(parseWebviewMessage({ type: 'search', query: 'x'.repeat(5000) }), undefined);
  });
});
