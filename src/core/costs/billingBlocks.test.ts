import * as assert from 'node:assert/strict';
import { parseRequest } from '../chat';
import { TokenCounter } from '../tokens/tokenCounter';
import { anthropicBodyBlocks, chatCompletionsBodyBlocks, requestBlocks, responsesBodyBlocks } from './billingBlocks';
import { ANTHROPIC_CACHE_RULE, billSession } from './cacheBilling';

const tokens = new TokenCounter();
const count = (text: string): number => tokens.count(text);
const long = (word: string): string => `${word} `.repeat(1500);

function claudeBody(messages: unknown[]): Record<string, unknown> {
  return {
    model: 'claude-sonnet-4-5',
    tools: [{ name: 'Read', description: long('read'), input_schema: { type: 'object' } }, { name: 'Bash', description: 'run', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
    system: [{ type: 'text', text: 'You are Claude Code.' }, { type: 'text', text: long('rules'), cache_control: { type: 'ephemeral' } }],
    messages,
  };
}

describe('billingBlocks', () => {
  it('reads an Anthropic body in prompt order with breakpoints where cache_control stands, and ignores the hints in the keys', () => {
    const first = claudeBody([{ role: 'user', content: [{ type: 'text', text: 'list files', cache_control: { type: 'ephemeral' } }] }]);
    const blocks = anthropicBodyBlocks(first, count);
    assert.equal(blocks.length, 5);
    assert.deepEqual(blocks.map((block) => block.breakpoint === true), [false, true, false, true, true]);
    const moved = claudeBody([{ role: 'user', content: [{ type: 'text', text: 'list files' }] }, { role: 'assistant', content: 'ok' }, { role: 'user', content: [{ type: 'text', text: 'next', cache_control: { type: 'ephemeral' } }] }]);
    const movedBlocks = anthropicBodyBlocks(moved, count);
    assert.equal(movedBlocks[4].key, blocks[4].key, 'the hint is not part of the key');
    const [, second] = billSession([{ blocks }, { blocks: movedBlocks }], ANTHROPIC_CACHE_RULE);
    assert.equal(second.cacheReadTokens, blocks.reduce((sum, block) => sum + block.tokens, 0));
  });

  it('counts every Responses tool form, a namespace tool and its inner tools included', () => {
    const namespace = { type: 'namespace', name: 'mcp__files', tools: [{ type: 'function', name: 'list', description: long('list'), parameters: { type: 'object' } }] };
    const body = { instructions: 'You are Codex.', tools: [{ type: 'function', name: 'shell', parameters: { type: 'object' } }, namespace], input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] };
    const blocks = responsesBodyBlocks(body, count);
    assert.equal(blocks[0].key.startsWith('instructions:'), true, 'instructions lead, tools follow');
    assert.ok(blocks[2].tokens >= count(long('list')), 'the namespace tool counts its inner tools');
  });

  it('puts Chat Completions system messages before the tools', () => {
    const blocks = chatCompletionsBodyBlocks({ messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f' } }] }, count);
    assert.deepEqual(blocks.map((block) => block.key.split(':')[0]), ['message', 'tool', 'message']);
  });

  it('reads a neutral request into blocks that sum to the counter\'s request count, breakpoints kept', () => {
    const request = parseRequest(claudeBody([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b', cache_control: { type: 'ephemeral' } }] }]));
    const blocks = requestBlocks(request, tokens);
    assert.equal(blocks.reduce((sum, block) => sum + block.tokens, 0), tokens.countRequest(request));
    assert.deepEqual(blocks.map((block) => block.breakpoint === true), [false, true, false, true, false, true]);
  });

  it('keys a neutral block the same whether or not it carries the breakpoint (the hint moves, the cache entry stays)', () => {
    const result = (hint: boolean): unknown => ({ type: 'tool_result', tool_use_id: 't1', content: 'output', ...(hint ? { cache_control: { type: 'ephemeral' } } : {}) });
    const call = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] };
    const first = parseRequest(claudeBody([{ role: 'user', content: 'go' }, call, { role: 'user', content: [result(true)] }]));
    const next = parseRequest(claudeBody([{ role: 'user', content: 'go' }, call, { role: 'user', content: [result(false)] }, { role: 'assistant', content: 'done' }, { role: 'user', content: [{ type: 'text', text: 'more', cache_control: { type: 'ephemeral' } }] }]));
    const a = requestBlocks(first, tokens);
    const b = requestBlocks(next, tokens);
    assert.equal(a[a.length - 1]!.breakpoint, true);
    assert.equal(b[a.length - 1]!.breakpoint, undefined);
    assert.equal(b[a.length - 1]!.key, a[a.length - 1]!.key);
    const [, second] = billSession([{ blocks: a }, { blocks: b }], ANTHROPIC_CACHE_RULE);
    assert.equal(second.cacheReadTokens, a.reduce((sum, block) => sum + block.tokens, 0));
  });
});
