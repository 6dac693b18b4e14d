/**
 * The editor prices a rewrite of cached history as the CLI and the gateway do: the
 * `herald.cache.rewriteMinSavedShare` setting is unset by default (the priced rule of
 * core/pipeline/cacheEconomics.ts) and, when set, replaces it with the fixed share.
 */
import { strict as assert } from 'node:assert';
import type { ChatMessage, ChatRequest } from '../../../src/core/chat/types';
import { Pipeline, type PipelineConfig } from '../../../src/core/pipeline/pipeline';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { createStrategies } from '../../../src/core/strategies/index';
import { createObservationMask } from '../../../src/core/strategies/observationMask';
import { manifestContributions } from '../../../src/vscode/manifest/contributes';
import { pipelineConfigOf } from '../../../src/vscode/optimizer/optimizer';
import { readSettings } from '../../../src/vscode/settings/settingsSchema';

const text = (role: ChatMessage['role'], value: string): ChatMessage => ({ role, parts: [{ type: 'text', text: value }], contentShape: 'parts' });
const call = (id: string): ChatMessage => ({ role: 'assistant', parts: [{ type: 'tool_call', id, name: 'run', arguments: { command: `step ${id}` } }], contentShape: 'parts' });
const result = (id: string, value: string): ChatMessage => ({ role: 'user', parts: [{ type: 'tool_result', callId: id, content: [{ type: 'text', text: value }], contentShape: 'parts' }], contentShape: 'parts' });
const LISTING = Array.from({ length: 120 }, (_, index) => `./packages/module_${index}/src/component_${index}.py`).join('\n');

/** A listing deep in cached history, 20 cached steps after it: masking it makes the provider write them all again. */
function coldSession(): ChatRequest {
  const step = (index: number): string => Array.from({ length: 50 }, (_, line) => `s${index}l${line} ok`).join(' ');
  const messages: ChatMessage[] = [text('user', 'Tidy the repository.'), call('big'), result('big', LISTING)];
  for (let index = 0; index < 20; index++) messages.push(call(`s${index}`), result(`s${index}`, step(index)));
  messages.push(text('assistant', 'Now the README.'), text('user', 'go on'));
  return { format: 'anthropic', messages, tools: [], options: {} };
}

async function masksTheListing(config: PipelineConfig): Promise<boolean> {
  // Only observation_mask runs here: the editor's switches for the other strategies are left out.
  const enabled = Object.fromEntries(Object.entries(config.enabled ?? {}).filter(([id]) => id === 'observation_mask'));
  const pipeline = new Pipeline([createObservationMask()], { ...config, enabled, options: { observation_mask: { keepRecentTurns: 0 } } }, { stash: new Stash({ store: new MemoryBlobStore() }) });
  const out = await pipeline.run(coldSession());
  return JSON.stringify(out.request.messages[2]!.parts).includes('observation masked');
}

describe('the editor prices cache rewrites as the CLI and the gateway do', () => {
  const strategies = createStrategies({});
  // VS Code returns the manifest's default for an unset setting: null here.
  const editorConfig = (value: unknown): ReturnType<typeof pipelineConfigOf> => pipelineConfigOf(readSettings((key) => (key === 'cache.rewriteMinSavedShare' ? value : undefined)).settings, strategies);

  it('leaves the share unset by default, so the pipeline prices the rewrite with the provider\'s cache', async () => {
    for (const unset of [undefined, null]) {
      const { config, problems } = editorConfig(unset);
      assert.equal('cachedRewriteMinSavedShare' in config, false, `unset (${String(unset)}): no fixed share reaches the pipeline`);
      assert.deepEqual(problems, []);
    }
    assert.equal(await masksTheListing(editorConfig(null).config), false, 'priced: masking the listing would make the provider write the 20 cached steps after it again');
  });

  it('a share the user sets replaces the priced rule; an invalid one is reported and the priced rule stays', async () => {
    const set = editorConfig(0.4);
    assert.equal(set.config.cachedRewriteMinSavedShare, 0.4);
    assert.equal(await masksTheListing(set.config), true, 'the fixed share ignores what follows the listing and masks it');
    assert.equal(editorConfig(0.1).config.cachedRewriteMinSavedShare, 0.1);
    const invalid = readSettings((key) => (key === 'cache.rewriteMinSavedShare' ? 2 : undefined));
    assert.ok(invalid.problems.some((problem) => problem.startsWith('herald.cache.rewriteMinSavedShare:')), invalid.problems.join('; '));
    assert.equal('cachedRewriteMinSavedShare' in pipelineConfigOf(invalid.settings, strategies).config, false);
  });

  it('the manifest contributes the setting unset (null), so VS Code hands back no number the user did not choose', () => {
    const setting = (manifestContributions(strategies).contributes.configuration as { properties: Record<string, { default?: unknown; type?: unknown }> }).properties['herald.cache.rewriteMinSavedShare']!;
    assert.equal(setting.default, null);
    assert.deepEqual(setting.type, ['number', 'null']);
  });
});
