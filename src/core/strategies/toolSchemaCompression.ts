/**
 * tool_schema_compression: shortens each tool's free-text descriptions (the tool's own and
 * the `description` of every schema node) and leaves the structural schema (types, enums,
 * required fields, names) byte for byte. It depends only on each tool's own bytes, so every
 * turn produces the same tools block: deterministic and cache-safe.
 */
import type { z } from 'zod';
import type { ChatRequest, ToolDefinition } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { compressDescription } from './toolDescriptions/descriptionText';
import { booleanOption } from './shared/optionReads';
import { optionDefaults } from '../pipeline/optionSchema';
import { TOOL_SCHEMA_COMPRESSION_OPTIONS } from './options/toolSchemaCompressionOptions';

export const TOOL_SCHEMA_COMPRESSION_ID = 'tool_schema_compression';

/** Options of tool_schema_compression, as its schema in `options/` declares them (type, default, bounds, description). */
export type ToolSchemaCompressionOptions = Readonly<z.output<typeof TOOL_SCHEMA_COMPRESSION_OPTIONS>>;

export const TOOL_SCHEMA_COMPRESSION_DEFAULTS: ToolSchemaCompressionOptions = optionDefaults(TOOL_SCHEMA_COMPRESSION_OPTIONS);

export function createToolSchemaCompression(): Strategy {
  return {
    id: TOOL_SCHEMA_COMPRESSION_ID,
    defaultEnabled: true,
    kind: 'transform',
    defaults: TOOL_SCHEMA_COMPRESSION_DEFAULTS,
    optionSchema: TOOL_SCHEMA_COMPRESSION_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const parameters = booleanOption(context.options, TOOL_SCHEMA_COMPRESSION_ID, 'parameterDescriptions');
      let changedTools = 0;
      let charsBefore = 0;
      let charsAfter = 0;
      const tools = request.tools.map((tool) => {
        const compressed = compressTool(tool, parameters);
        if (compressed === tool) return tool;
        changedTools++;
        charsBefore += descriptionChars(tool);
        charsAfter += descriptionChars(compressed);
        return compressed;
      });
      if (changedTools === 0) return { request, action: 'tool-descriptions-kept', reason: request.tools.length === 0 ? 'no tools' : 'no description had anything to shorten' };
      return {
        request: { ...request, tools },
        action: 'tool-descriptions-shortened',
        reason: `shortened the descriptions of ${changedTools} of ${request.tools.length} tools; schemas kept`,
        details: { toolsChanged: changedTools, tools: request.tools.length, descriptionCharsBefore: charsBefore, descriptionCharsAfter: charsAfter },
      };
    },
  };
}

/** The same tool with shorter descriptions, or the tool itself when nothing shortens. */
export function compressTool(tool: ToolDefinition, parameterDescriptions = true): ToolDefinition {
  const description = tool.description === undefined ? undefined : compressDescription(tool.description);
  const inputSchema = parameterDescriptions ? compressSchema(tool.inputSchema) : tool.inputSchema;
  if (description === tool.description && inputSchema === tool.inputSchema) return tool;
  return { ...tool, description, inputSchema };
}

/**
 * A schema with every node's string `description` shortened. Walks only schema keywords that
 * hold sub-schemas, so a property that happens to be named "description" is a schema, not text.
 */
function compressSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    let next = value;
    if (key === 'description' && typeof value === 'string') next = compressDescription(value);
    else if (SCHEMA_MAPS.has(key) && isRecord(value)) next = mapValues(value, compressSchema);
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) next = mapList(value, compressSchema);
    else if (SCHEMA_SINGLE.has(key)) next = Array.isArray(value) ? mapList(value, compressSchema) : compressSchema(value);
    if (next !== value) changed = true;
    out[key] = next;
  }
  return changed ? out : schema;
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_SINGLE = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems']);

function mapValues(record: Record<string, unknown>, map: (value: unknown) => unknown): Record<string, unknown> {
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    out[key] = map(value);
    if (out[key] !== value) changed = true;
  }
  return changed ? out : record;
}

function mapList(list: readonly unknown[], map: (value: unknown) => unknown): unknown[] {
  const out = list.map(map);
  return out.some((value, index) => value !== list[index]) ? out : (list as unknown[]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function descriptionChars(tool: ToolDefinition): number {
  return (tool.description?.length ?? 0) + JSON.stringify(tool.inputSchema ?? null).length;
}
