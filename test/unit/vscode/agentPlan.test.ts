import { strict as assert } from 'node:assert';
import { parse } from 'yaml';
import { continueConfigWith, continueEntryName, gatewayUpstream, planConnection, renderPlan, rooImportFile, ROO_IMPORT_SETTING, type PlanInput } from '../../../src/vscode/agents/agentPlan';
import { markDefault, shouldOffer } from '../../../src/vscode/agents/defaultModelRule';
import type { EndpointSettings } from '../../../src/vscode/settings/settingsSchema';

const OPENAI: EndpointSettings = { name: 'work', kind: 'openai', url: 'https://llm.example.com/v1', model: 'gpt-4.1', maxInputTokens: 128_000, maxOutputTokens: 4096, toolCalling: true, imageInput: false };
const ANTHROPIC: EndpointSettings = { ...OPENAI, name: 'claude', kind: 'anthropic', url: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5' };

const EXISTING_CONTINUE = `# my models
name: Local Config
version: 1.0.0
schema: v1
models:
  # the local one
  - name: Llama
    provider: ollama
    model: llama3.1:8b
`;

function input(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    agents: ['Continue', 'Roo Code', 'Cline'],
    endpoint: OPENAI,
    endpointHasKey: true,
    gateway: { enabled: false, port: 8787, openaiBaseUrl: 'https://api.openai.com/v1', anthropicBaseUrl: 'https://api.anthropic.com' },
    continueConfig: { path: '/home/u/.continue/config.yaml', text: EXISTING_CONTINUE },
    rooImport: { path: '/storage/agents/roo-code-herald.json', settingBefore: undefined },
    ...overrides,
  };
}

describe('Connect Agent Extensions: the plan', () => {
  it('turns the gateway on, points it at the endpoint, and points each agent at the gateway', () => {
    const plan = planConnection(input());
    const settings = Object.fromEntries(plan.steps.flatMap((step) => (step.kind === 'setting' ? [[step.key, step.value]] : [])));
    assert.deepEqual(settings, { 'herald.gateway.enabled': true, 'herald.gateway.openaiBaseUrl': 'https://llm.example.com/v1', [ROO_IMPORT_SETTING]: '/storage/agents/roo-code-herald.json' });
    const continueFile = plan.steps.find((step) => step.kind === 'file' && step.agent === 'Continue');
    assert.ok(continueFile && continueFile.kind === 'file');
    const config = parse(continueFile.content) as { models: Record<string, unknown>[] };
    assert.deepEqual(config.models[1], { name: continueEntryName(OPENAI), provider: 'openai', model: 'gpt-4.1', apiBase: 'http://127.0.0.1:8787/v1', apiKey: '${{ secrets.OPENAI_API_KEY }}', roles: ['chat', 'edit', 'apply'] });
    assert.match(continueFile.summary, /OPENAI_API_KEY=<your key>.*\/home\/u\/\.continue\/\.env/);
    const manual = plan.steps.find((step) => step.kind === 'manual');
    assert.ok(manual && manual.kind === 'manual' && manual.agent === 'Cline');
    assert.ok(manual.instructions.some((line) => line.includes('http://127.0.0.1:8787/v1')));
  });

  it('keeps the rest of Continue\'s config.yaml, comments included, and replaces its own entry on a second run', () => {
    const once = continueConfigWith(EXISTING_CONTINUE, { name: 'x through Herald', provider: 'openai', model: 'x', apiBase: 'http://127.0.0.1:1/v1' });
    assert.ok(once.startsWith('# my models\n'));
    assert.match(once, /# the local one\n {2}- name: Llama/);
    const twice = continueConfigWith(once, { name: 'x through Herald', provider: 'openai', model: 'x', apiBase: 'http://127.0.0.1:2/v1' });
    const models = (parse(twice) as { models: { name: string; apiBase?: string }[] }).models;
    assert.deepEqual(models.map((model) => model.name), ['Llama', 'x through Herald']);
    assert.equal(models[1]!.apiBase, 'http://127.0.0.1:2/v1');
    // A new file gets Continue's header.
    assert.deepEqual(Object.keys(parse(continueConfigWith(undefined, { name: 'n', provider: 'anthropic', model: 'm', apiBase: 'http://h/v1/' })) as object), ['name', 'version', 'schema', 'models']);
    assert.throws(() => continueConfigWith('models: {a: 1}\n', { name: 'n', provider: 'openai', model: 'm', apiBase: 'b' }), /not a list/);
  });

  it('writes no key anywhere, and no key setting for an endpoint that needs none', () => {
    const plan = planConnection(input({ endpointHasKey: false }));
    const text = JSON.stringify(plan.steps);
    assert.doesNotMatch(text, /apiKey|secrets\./);
    const roo = JSON.parse(rooImportFile(OPENAI, 'http://127.0.0.1:8787')) as { providerProfiles: { currentApiConfigName: string; apiConfigs: Record<string, Record<string, string>> } };
    assert.deepEqual(roo.providerProfiles, { currentApiConfigName: 'Herald', apiConfigs: { Herald: { apiProvider: 'openai', openAiBaseUrl: 'http://127.0.0.1:8787/v1', openAiModelId: 'gpt-4.1' } } });
  });

  it('sends Anthropic endpoints through the gateway without /v1, and says so in the preview', () => {
    assert.deepEqual(gatewayUpstream(ANTHROPIC), { key: 'anthropicBaseUrl', url: 'https://api.anthropic.com' });
    const plan = planConnection(input({ endpoint: { ...ANTHROPIC, url: 'https://proxy.example.com/anthropic/v1' }, gateway: { enabled: true, port: 9000, openaiBaseUrl: 'https://api.openai.com/v1', anthropicBaseUrl: 'https://api.anthropic.com' } }));
    assert.ok(plan.steps.some((step) => step.kind === 'setting' && step.key === 'herald.gateway.anthropicBaseUrl' && step.value === 'https://proxy.example.com/anthropic'));
    assert.ok(!plan.steps.some((step) => step.kind === 'setting' && step.key === 'herald.gateway.enabled'), 'the gateway is already on');
    const preview = renderPlan(plan);
    assert.match(preview, /apiBase: http:\/\/127\.0\.0\.1:9000\/v1\//);
    assert.match(preview, /Nothing is written until you choose \*\*Write\*\*/);
    assert.match(preview, /## Cline: set by hand/);
  });
});

describe('A chat without Copilot: Herald\'s default model', () => {
  const entries = [
    { id: 'endpoint:work', name: 'Herald · work', family: 'gpt-4.1', version: '1', maxInputTokens: 1, maxOutputTokens: 1, capabilities: {} },
    { id: 'lm:copilot/gpt-4.1', name: 'Herald · GPT-4.1', family: 'gpt-4.1', version: '1', maxInputTokens: 1, maxOutputTokens: 1, capabilities: {} },
  ];

  it('marks the first endpoint model default and selectable only when it offers', () => {
    assert.deepEqual(markDefault(entries, false), entries);
    const marked = markDefault(entries, true);
    assert.equal(marked[0]!.isDefault, true);
    assert.equal(marked[0]!.isUserSelectable, true);
    assert.equal(marked[1]!.isDefault, undefined);
    assert.deepEqual(markDefault([entries[1]!], true), [entries[1]], 'never a Copilot-hosted wrapper');
  });

  it('offers only when no Copilot model exists, and waits for an installed Copilot Chat to list its models', () => {
    assert.equal(shouldOffer({ copilotModels: 0, copilotInstalled: false, copilotActiveForMs: undefined }), true);
    assert.equal(shouldOffer({ copilotModels: 3, copilotInstalled: true, copilotActiveForMs: 60_000 }), false);
    assert.equal(shouldOffer({ copilotModels: 1, copilotInstalled: false, copilotActiveForMs: undefined }), false);
    assert.equal(shouldOffer({ copilotModels: 0, copilotInstalled: true, copilotActiveForMs: undefined }), false);
    assert.equal(shouldOffer({ copilotModels: 0, copilotInstalled: true, copilotActiveForMs: 2_000 }), false);
    assert.equal(shouldOffer({ copilotModels: 0, copilotInstalled: true, copilotActiveForMs: 20_000 }), true);
  });
});
