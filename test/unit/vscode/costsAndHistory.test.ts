import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_PRICES } from '../../../src/core/costs/prices';
import { RecordingLogger } from '../../../src/core/ports';
import type { RequestRecord } from '../../../src/core/flow/requestFlow';
import { createStrategies } from '../../../src/core/strategies/index';
import { forwardedModelOptions, HERALD_ORIGIN_OPTION, languageModelInformation, providerInformation, targetOrder, UNKNOWN_OUTPUT_LIMIT } from '../../../src/vscode/chat/modelInformation';
import { handleInText } from '../../../src/vscode/commands/retrieveContentText';
import { originalHtml } from '../../../src/vscode/commands/originalHtml';
import { DecisionLog, savingsReportCsv } from '../../../src/vscode/decisions/decisionLog';
import { DecisionStore, readDecisionFile } from '../../../src/vscode/decisions/decisionStore';
import { withCost } from '../../../src/vscode/decisions/requestCost';
import { copilotTradeoffText, WELCOME_TEXT } from '../../../src/vscode/host/welcomeText';
import { ownCallRecord } from '../../../src/vscode/knowledge/ownCalls';
import { manifestContributions } from '../../../src/vscode/manifest/contributes';
import { billingNote } from '../../../src/core/costs/billing';
import type { ForwardTarget, TargetInformation } from '../../../src/core/flow/forwardTarget';

function record(id: string, extra: Partial<RequestRecord> = {}): RequestRecord {
  return { id, startedAt: Date.UTC(2026, 0, 1), model: 'Fake', status: 'optimized', tokensBefore: 1000, tokensAfter: 600, optimizeMs: 3, totalMs: 40, decisions: [], handles: [], retrievals: 0, replayedMessages: 0, ...extra };
}

describe('money per request', () => {
  const usage = { inputTokens: 400_000, cacheReadTokens: 200_000, cacheWriteTokens: 0, outputTokens: 10_000 };

  it("prices the provider's usage by the target's model id, and estimates the unoptimized turn beside it", () => {
    const priced = withCost(record('a', { billing: 'tokens', family: 'gpt-4.1-2025-04-14', usage, rounds: 1 }), DEFAULT_PRICES);
    assert.equal(priced.cost?.priceKey, 'gpt-4.1');
    assert.ok(Math.abs(priced.cost!.billedUsd - (0.4 * 2 + 0.2 * 0.5 + 0.01 * 8)) < 1e-9);
    assert.ok(priced.cost!.unoptimizedUsd > priced.cost!.billedUsd, 'Herald removed 400 tokens');
  });

  it('gives no money figure without usage, for premium-request targets, or for a model the table lacks', () => {
    assert.equal(withCost(record('a', { billing: 'tokens', family: 'gpt-4.1' }), DEFAULT_PRICES).cost, undefined);
    assert.equal(withCost(record('a', { billing: 'premium-requests', family: 'gpt-4.1', usage }), DEFAULT_PRICES).cost, undefined);
    assert.equal(withCost(record('a', { billing: 'tokens', family: 'llama3', usage }), DEFAULT_PRICES).cost, undefined);
  });

  it('a failed turn costs what it was billed, with nothing saved against it', () => {
    const failed = withCost(record('a', { status: 'failed', billing: 'tokens', family: 'gpt-4.1', usage }), DEFAULT_PRICES);
    assert.equal(failed.cost!.unoptimizedUsd, failed.cost!.billedUsd);
  });

  it('puts premium requests and money in the report columns', () => {
    const rows = savingsReportCsv([withCost(record('a', { billing: 'tokens', family: 'gpt-4.1', usage, rounds: 2 }), DEFAULT_PRICES), record('b', { billing: 'premium-requests', premiumRequests: 3, rounds: 3 })]).split('\r\n');
    const header = rows[0]!.split(',');
    const cell = (row: number, column: string): string => rows[row]!.split(',')[header.indexOf(column)]!;
    assert.equal(cell(1, 'billed_input_tokens'), '400000');
    assert.equal(cell(1, 'billed_cached_tokens'), '200000');
    assert.equal(cell(1, 'price_key'), 'gpt-4.1');
    assert.match(cell(1, 'billed_usd'), /^0\.98/);
    assert.equal(cell(2, 'premium_requests'), '3');
    assert.equal(cell(2, 'billing'), 'premium-requests');
    assert.equal(cell(2, 'billed_usd'), '');
  });
});

describe('decisions across a reload', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-decisions-'));
  after(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('keeps the records and the totals in a file and brings them back', () => {
    const file = path.join(folder, 'decisions.json');
    const log = new DecisionLog(3);
    const store = new DecisionStore(file, log, new RecordingLogger(), 10_000);
    for (const id of ['a', 'b', 'c', 'd']) log.add(record(id, { premiumRequests: 1, billing: 'premium-requests' }));
    store.flush();
    store.dispose();
    const reloaded = new DecisionLog(3);
    new DecisionStore(file, reloaded, new RecordingLogger()).dispose();
    assert.deepEqual(reloaded.list().map((entry) => entry.id), ['b', 'c', 'd'], 'bounded: the oldest went');
    assert.deepEqual(reloaded.sessionTotals(), log.sessionTotals(), 'totals count every request, the dropped one too');
    assert.equal(reloaded.sessionTotals().premiumRequests, 4);
    assert.equal(reloaded.last()?.id, 'd');
  });

  it('sets a file of another version aside and starts empty, saying so', () => {
    const file = path.join(folder, 'foreign.json');
    fs.writeFileSync(file, JSON.stringify({ schema: 99, totals: {}, records: [] }));
    const logger = new RecordingLogger();
    assert.equal(readDecisionFile(file, logger), undefined);
    assert.ok(fs.existsSync(`${file}.unreadable`));
    assert.ok(logger.lines.some((entry) => entry.code === 'decisions-unreadable'));
    assert.equal(readDecisionFile(path.join(folder, 'none.json'), logger), undefined);
  });

  it("/explain's last request is the user's, not Herald's own planning call", () => {
    const log = new DecisionLog();
    log.add(record('mine'));
    log.add(record('plan', { origin: 'herald' }));
    assert.equal(log.last()?.id, 'mine');
  });
});

describe("Herald's own calls to a Copilot-hosted model", () => {
  it('each is a premium request, recorded as Herald\'s; through a Herald model the provider records it instead', () => {
    const own = ownCallRecord({ vendor: 'copilot', name: 'GPT-4.1', family: 'gpt-4.1', purpose: 'library plan', tokens: 120, failed: false }, 'h1', 5);
    assert.equal(own?.premiumRequests, 1);
    assert.equal(own?.origin, 'herald');
    assert.match(own!.model, /library plan/);
    assert.equal(ownCallRecord({ vendor: 'herald', name: 'Herald · x', family: 'x', purpose: 'library plan', tokens: 1, failed: false }, 'h2', 5), undefined);
    assert.equal(ownCallRecord({ vendor: 'other', name: 'x', family: 'x', purpose: 'p', tokens: 1, failed: false }, 'h3', 5), undefined);
  });
});

describe('what the model picker says', () => {
  const info = (overrides: Partial<TargetInformation>): TargetInformation => ({ id: 'lm:copilot/claude-sonnet-4', name: 'Claude Sonnet 4', family: 'claude-sonnet-4', version: '1', maxInputTokens: 100_000, maxOutputTokens: 4096, toolCalling: true, imageInput: false, ...overrides });

  it('discloses premium requests in the detail and tooltip of every Copilot-hosted entry', () => {
    const entry = providerInformation(info({ billing: 'premium-requests', detail: 'through copilot' }), billingNote('premium-requests'));
    assert.match(entry.detail ?? '', /^premium requests/);
    assert.match(entry.tooltip, /every request Herald sends .* counts as one premium request/);
    assert.match(entry.tooltip, /docs\.github\.com/);
    const endpoint = providerInformation(info({ id: 'endpoint:e', billing: 'tokens', detail: 'OpenAI-compatible endpoint' }), billingNote('tokens'));
    assert.doesNotMatch(endpoint.tooltip, /premium/);
  });

  it('lists endpoints first and Copilot-hosted models last', () => {
    const target = (id: string, billing: TargetInformation['billing']): ForwardTarget => ({ information: info({ id, billing }), send: () => (async function* () {})(), countTokens: async () => 0 });
    const order = targetOrder([target('lm:copilot/a', 'premium-requests'), target('lm:other/b', 'unknown'), target('endpoint:c', 'tokens')]).map((entry) => entry.information.id);
    assert.deepEqual(order, ['endpoint:c', 'lm:other/b', 'lm:copilot/a']);
  });

  it("reports a VS Code model's own family, and an output limit only when the model says one", () => {
    const model = { id: 'gpt-4.1', vendor: 'copilot', name: 'GPT-4.1', family: 'gpt-4.1', version: '2025-04-14', maxInputTokens: 111_000 };
    const information = languageModelInformation(model);
    assert.equal(information.family, 'gpt-4.1');
    assert.equal(information.maxInputTokens, 111_000);
    assert.equal(information.maxOutputTokens, UNKNOWN_OUTPUT_LIMIT, 'not the 16k it used to claim');
    assert.equal(information.billing, 'premium-requests');
    assert.equal(languageModelInformation({ ...model, vendor: 'x', maxOutputTokens: 1000 } as typeof model).maxOutputTokens, 1000);
  });

  it("forwards Copilot's internal options only to Copilot, and Herald's own marker to nobody", () => {
    const options = { _capturingTokenCorrelationId: 'id', _otelTraceContext: null, temperature: 0, [HERALD_ORIGIN_OPTION]: 'herald' };
    assert.deepEqual(forwardedModelOptions(options, info({ id: 'lm:copilot/gpt-4.1' })), { _capturingTokenCorrelationId: 'id', _otelTraceContext: null, temperature: 0 });
    assert.deepEqual(forwardedModelOptions(options, info({ id: 'lm:herald-e2e/echo' })), { temperature: 0 });
    assert.equal(forwardedModelOptions({ [HERALD_ORIGIN_OPTION]: 'herald' }, info({ id: 'endpoint:e' })), undefined);
  });

  it('explains the trade-off before Copilot models are listed', () => {
    assert.match(copilotTradeoffText(3), /3 Copilot models.*premium request.*multiplier/);
  });
});

describe('the first run in the manifest', () => {
  const contributes = manifestContributions(createStrategies({})).contributes as { commands: { command: string }[]; languageModelChatProviders: { managementCommand?: string }[]; languageModelTools: { name: string }[]; configuration: { properties: Record<string, { default?: unknown }> } };
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { icon?: string; keywords?: string[] };

  it("offers a permanent Enable Herald Models command and points VS Code's Manage action at Manage Endpoints", () => {
    assert.ok(contributes.commands.some((command) => command.command === 'herald.enableModels'));
    assert.equal(contributes.languageModelChatProviders[0]!.managementCommand, 'herald.manageEndpoints');
    assert.ok(contributes.commands.some((command) => command.command === 'herald.manageEndpoints'));
  });

  it('does not contribute herald_retrieve: every Herald model answers it inside the turn', () => {
    const names = contributes.languageModelTools.map((tool) => tool.name);
    assert.deepEqual(names, ['herald_get_context', 'herald_read_page', 'herald_filter_context']);
  });

  it('declares the price table and the Copilot-hosted choice with careful defaults', () => {
    // Empty, so "Edit in settings.json" copies nothing: the built-in table applies wherever the user's leaves a model out.
    assert.deepEqual(contributes.configuration.properties['herald.prices']!.default, {});
    assert.equal(contributes.configuration.properties['herald.copilotHostedModels']!.default, 'ask');
  });

  it('carries what a Marketplace listing needs', () => {
    assert.ok(manifest.icon && fs.existsSync(path.resolve(__dirname, '../../..', manifest.icon)), 'the icon file exists');
    assert.ok((manifest.keywords ?? []).length >= 5);
  });
});

describe('opening an original', () => {
  it('finds the handle in a pasted marker or line', () => {
    assert.equal(handleInText('[herald: 412 lines elided · retrieve hr_k2p4q7m3x7a5b6c2]'), 'hr_k2p4q7m3x7a5b6c2');
    assert.equal(handleInText('  hr_k2p4q7m3x7a5b6c2 '), 'hr_k2p4q7m3x7a5b6c2');
    assert.equal(handleInText('nothing here'), undefined);
  });

  it('shows it escaped, script-free, in a page chat does not attach', () => {
    const html = originalHtml({ handle: 'hr_k2p4q7m3x7a5b6c2', original: '<script>alert(1)</script>\n& "quoted"', language: 'plaintext', cspSource: 'vscode-resource:', styleUri: 'style.css' });
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!/<script/i.test(html));
    assert.match(html, /default-src 'none'/);
    assert.match(html, /2 lines · 36 characters/);
    assert.match(html, /command:herald\.copyOriginal\?/);
  });
});

describe('the original view keeps every byte', () => {
  it('survives a leading newline and carriage returns once parsed', () => {
    const html = originalHtml({ handle: 'hr_aaaaaaaaaaaaaaaa', original: '\nline 1\r\nline 2', language: 'plaintext', cspSource: 'c', styleUri: 's' });
    assert.ok(html.includes('data-handle="hr_aaaaaaaaaaaaaaaa">\n\nline 1&#13;\nline 2</pre>'));
  });
});

describe('the first-run notice', () => {
  it('says what needs Copilot, what works without it, and what Copilot-hosted models cost', () => {
    assert.match(WELCOME_TEXT, /Manage Models/);
    assert.match(WELCOME_TEXT, /without Copilot, use @herald with an endpoint model/);
    assert.match(WELCOME_TEXT, /premium request/);
  });
});
