/**
 * The gateway's settings (`herald.gateway.*`): declared once here for the manifest and read
 * back with zod; a bad value falls back to its default and is reported, never stops Herald.
 */
import { z } from 'zod';

export const gatewaySettingsSchema = z.object({
  /** Start the local gateway with the extension. */
  enabled: z.boolean().default(false),
  /** The loopback port it listens on. */
  port: z.number().int().min(1).max(65535).default(8787),
  /** Where OpenAI requests go (`/v1` included). */
  openaiBaseUrl: z.url().default('https://api.openai.com/v1'),
  /** Where Anthropic requests go (without `/v1`). */
  anthropicBaseUrl: z.url().default('https://api.anthropic.com'),
});

export type GatewaySettings = z.infer<typeof gatewaySettingsSchema>;

/** The `contributes.configuration` entries of the gateway's settings. */
export const GATEWAY_CONFIGURATION: Readonly<Record<string, unknown>> = {
  'herald.gateway.enabled': { type: 'boolean', default: false, order: 20, markdownDescription: 'Run the local gateway (the same as `herald serve`) while VS Code is open, on 127.0.0.1, so agents outside VS Code (Claude Code, Codex, Cline, Roo Code, Continue, Aider) get Herald too; their requests appear in the Decisions view. Point each agent at it as the README\'s "Herald for every agent" says.' },
  'herald.gateway.port': { type: 'integer', default: 8787, minimum: 1, maximum: 65535, order: 21, description: 'The port the local gateway listens on (127.0.0.1 only).' },
  'herald.gateway.openaiBaseUrl': { type: 'string', default: 'https://api.openai.com/v1', order: 22, description: 'Where the gateway sends OpenAI requests (Chat Completions, Responses), /v1 included.' },
  'herald.gateway.anthropicBaseUrl': { type: 'string', default: 'https://api.anthropic.com', order: 23, description: 'Where the gateway sends Anthropic requests (Messages), without /v1.' },
};

/** The gateway's settings from `herald.gateway.<key>` values; problems name the setting and the default used. */
export function readGatewaySettings(get: (key: keyof GatewaySettings) => unknown): { settings: GatewaySettings; problems: string[] } {
  const problems: string[] = [];
  const shape = gatewaySettingsSchema.shape;
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(shape) as (keyof GatewaySettings)[]) {
    const value = get(key);
    if (value === undefined) continue;
    const parsed = shape[key].safeParse(value);
    if (parsed.success) values[key] = parsed.data;
    else problems.push(`herald.gateway.${key}: ${JSON.stringify(value)} is not valid (${parsed.error.issues[0]?.message ?? 'invalid'}); the default is used`);
  }
  return { settings: gatewaySettingsSchema.parse(values), problems };
}
