import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import { compressDescription } from './toolDescriptions/descriptionText';
import { createToolSchemaCompression } from './toolSchemaCompression';
import { AGENT_TOOLS, anthropicTools, openAITools, pipelineOf } from '../../../test/support/agentFixtures';

/** Every value of a schema except the free text under `description`. */
function structure(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === 'description' && typeof value === 'string' ? undefined : value)));
}

describe('tool_schema_compression', () => {
  it('strips boilerplate openers, politeness and whitespace runs, as in the seed examples', () => {
    assert.equal(compressDescription('This tool allows you to search the knowledge base. Use it\nwhenever you need a citation.'), 'search the knowledge base. Use it\nwhenever you need a citation.');
    assert.equal(compressDescription('This tool allows you to create a support ticket. Please be sure to fill every field.'), 'create a support ticket. Fill every field.');
    assert.equal(compressDescription('Runs   a query.\n\n\n\nReturns rows.  '), 'Runs a query.\n\nReturns rows.');
  });

  it('keeps fenced examples and list indentation byte for byte', () => {
    const text = 'Use this tool to run SQL.\n  - first   item\n```sql\nSELECT  *   FROM t;\n```';
    assert.equal(compressDescription(text), 'run SQL.\n  - first item\n```sql\nSELECT  *   FROM t;\n```');
  });

  for (const format of ['openai', 'anthropic'] as const) {
    it(`shortens descriptions of an agent's tools and leaves types, enums and required fields untouched (${format})`, async () => {
      const body = format === 'openai'
        ? { model: 'gpt-4o', messages: [{ role: 'user', content: 'fix the failing test' }], tools: openAITools() }
        : { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'fix the failing test' }], tools: anthropicTools() };
      const { pipeline } = pipelineOf([createToolSchemaCompression()]);
      const result = await pipeline.run(parseRequest(body));
      assert.equal(result.decisions[0]!.action, 'tool-descriptions-shortened');
      assert.ok(result.tokensAfter < result.tokensBefore);
      const out = serializeRequest(result.request).tools as Record<string, unknown>[];
      assert.equal(out.length, AGENT_TOOLS.length, 'every tool stays');
      out.forEach((tool, index) => {
        const schema = format === 'openai' ? (tool.function as Record<string, unknown>).parameters : tool.input_schema;
        assert.deepEqual(structure(schema), structure(AGENT_TOOLS[index]!.parameters));
      });
      const read = format === 'openai' ? (out[0]!.function as Record<string, unknown>).description : out[0]!.description;
      assert.equal(read, 'read the contents of a file. Use it to inspect source code before editing.');
      const run = (format === 'openai' ? (out[2]!.function as Record<string, unknown>).parameters : out[2]!.input_schema) as { properties: { mode: unknown } };
      assert.deepEqual(run.properties.mode, { type: 'string', enum: ['sync', 'async'] });
      // Deterministic: the same tools give the same bytes on the next turn.
      const again = await pipeline.run(parseRequest(body));
      assert.equal(JSON.stringify(serializeRequest(again.request).tools), JSON.stringify(out));
    });
  }

  it('treats a property named "description" as a schema, not as text', async () => {
    const tools = [{ type: 'function', function: { name: 'create_ticket', description: 'Create a ticket.', parameters: { type: 'object', properties: { description: { type: 'string', description: 'The   body.' } } } } }];
    const { pipeline } = pipelineOf([createToolSchemaCompression()]);
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], tools }));
    const parameters = ((serializeRequest(result.request).tools as Record<string, Record<string, unknown>>[])[0]!.function!.parameters) as { properties: { description: unknown } };
    assert.deepEqual(parameters.properties.description, { type: 'string', description: 'The body.' });
  });
});
