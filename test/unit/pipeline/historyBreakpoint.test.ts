/**
 * Where an Anthropic client leaves a breakpoint free (Claude Code uses three of four), Herald puts
 * one on the last block before the fresh input, where its next rewrite starts, so that rewrite
 * reads everything before it from the cache.
 */
import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../../../src/core/chat';
import type { ChatRequest } from '../../../src/core/chat/types';
import { anthropicBodyBlocks } from '../../../src/core/costs/billingBlocks';
import { ANTHROPIC_CACHE_RULE, ProviderCache } from '../../../src/core/costs/cacheBilling';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { countBreakpoints, createCacheOptimizer } from '../../../src/core/strategies/cacheOptimizer';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';

const EPHEMERAL = { type: 'ephemeral' };
const SYSTEM = [{ type: 'text', text: 'You are Claude Code. '.repeat(300), cache_control: EPHEMERAL }, { type: 'text', text: 'Use the tools. '.repeat(100), cache_control: EPHEMERAL }];
/** Six parallel reads a turn: two turns of them (24 blocks) are past Anthropic's 20-block lookback. */
const PARALLEL = 6;

type Block = Record<string, unknown>;
function turn(index: number): { assistant: Block; results: Block } {
  const ids = Array.from({ length: PARALLEL }, (_, call) => `toolu_${index}_${call}`);
  return {
    assistant: { role: 'assistant', content: ids.map((id) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: `/w/${id}.py` } })) },
    results: { role: 'user', content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: `contents of ${id} `.repeat(40) })) },
  };
}

/** Claude Code's request after `turns` turns: its breakpoints on the system prompt and on the last block. */
function body(turns: number): Record<string, unknown> {
  const messages: Block[] = [{ role: 'user', content: [{ type: 'text', text: 'Read every module.' }] }];
  for (let index = 0; index < turns; index++) messages.push(turn(index).assistant, turn(index).results);
  const last = messages[messages.length - 1]!;
  const content = (last.content as Block[]).map((block, at, all) => (at === all.length - 1 ? { ...block, cache_control: EPHEMERAL } : block));
  messages[messages.length - 1] = { ...last, content };
  return { model: 'claude-sonnet-4-5', max_tokens: 1000, system: SYSTEM, tools: [{ name: 'Read', description: 'Reads a file', input_schema: { type: 'object' } }], messages };
}

/** The same request with the message at `messageIndex` (the system prompt is message 0) rewritten (what Herald does when that fresh input becomes history). */
function rewritten(request: ChatRequest, messageIndex: number): ChatRequest {
  const messages = [...request.messages];
  const message = messages[messageIndex]!;
  messages[messageIndex] = { ...message, parts: message.parts.map((part) => (part.type === 'tool_result' ? { ...part, content: [{ type: 'text' as const, text: '[masked]' }] } : part)) };
  return { ...request, messages };
}

describe('a breakpoint where the next rewrite starts', () => {
  it('adds one on the last block before the fresh input, moves it each turn, never past four', async () => {
    const pipeline = new Pipeline([createCacheOptimizer()], {}, { stash: new Stash({ store: new MemoryBlobStore() }) });
    const sent: ChatRequest[] = [];
    for (let turns = 1; turns <= 3; turns++) sent.push((await pipeline.run(parseRequest(body(turns)))).request);
    for (const [index, request] of sent.entries()) {
      assert.equal(countBreakpoints(request), 4, `request ${index + 1}: the client's three and Herald's one`);
      const end = request.messages.length - 2;
      assert.ok(JSON.stringify(request.messages[end]).includes('cache_control'), `request ${index + 1}: on the last block before the fresh input`);
      const bare = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'cache_control' ? undefined : inner)));
      assert.deepEqual(bare(serializeRequest(request)), bare(body(index + 1)), 'content untouched');
    }
  });

  it('lets the next rewrite read everything before it (Anthropic\'s rule, the 20-block lookback)', async () => {
    const tokens = new TokenCounter();
    const bill = async (withHerald: boolean): Promise<number> => {
      const pipeline = new Pipeline(withHerald ? [createCacheOptimizer()] : [], {}, { stash: new Stash({ store: new MemoryBlobStore() }), tokens });
      const cache = new ProviderCache(ANTHROPIC_CACHE_RULE);
      let last = 0;
      for (let turns = 1; turns <= 3; turns++) {
        const out = (await pipeline.run(parseRequest(body(turns)))).request;
        // On the third request the results of turn 2 (fresh on the second) are rewritten.
        last = cache.record({ blocks: anthropicBodyBlocks(serializeRequest(turns === 3 ? rewritten(out, 5) : out), (text) => tokens.count(text)) }).cacheReadTokens;
      }
      return last;
    };
    const without = await bill(false);
    const withHerald = await bill(true);
    assert.ok(withHerald > without + 1000, `cache read on the rewriting request: ${withHerald} tokens with Herald's breakpoint, ${without} without`);
  });
});
