import { strict as assert } from 'node:assert';
import { parseRequest } from '../../../src/core/chat';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';

/** Every tool form a Responses body carries, as Codex sends them: function, custom (a grammar), namespace (MCP tools inside). */
const body = {
  model: 'gpt-5-codex',
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
  tools: [
    { type: 'function', name: 'shell', description: 'Runs a shell command', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } } },
    { type: 'custom', name: 'apply_patch', description: 'Applies a patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\nend_patch: "*** End Patch" LF?\n' } },
    { type: 'namespace', name: 'mcp__github', description: 'GitHub tools', tools: [{ type: 'function', name: 'search_issues', description: 'Search issues in a repository by query text', parameters: { type: 'object', properties: { query: { type: 'string' } } } }] },
  ],
};

describe('token counts of every tool form', () => {
  it('counts a custom tool\'s grammar and a namespace tool\'s nested tools, close to their JSON', () => {
    const request = parseRequest(body);
    const tokens = new TokenCounter();
    const counted = request.tools.map((tool) => tokens.countTool(tool));
    const json = body.tools.map((tool) => tokens.count(JSON.stringify(tool)));
    const grammar = tokens.count(body.tools[1]!.format!.definition);
    assert.ok(counted[1]! >= grammar + tokens.count('apply_patch Applies a patch'), `the custom tool's grammar is counted (${counted[1]} tokens, the grammar alone ${grammar})`);
    assert.ok(counted[2]! >= 0.9 * json[2]! && counted[2]! <= json[2]!, `the namespace tool's nested tools are counted (${counted[2]} of its JSON's ${json[2]})`);
    assert.ok(counted[1]! <= json[1]!);
  });

  it('counts no cache hint and no bookkeeping of Herald\'s', () => {
    const tokens = new TokenCounter();
    const plain = { name: 'Read', description: 'Reads a file', inputSchema: { type: 'object' } };
    assert.equal(tokens.countTool({ ...plain, extra: { cache_control: { type: 'ephemeral' }, $noSchema: true } }), tokens.countTool({ ...plain }));
  });
});
