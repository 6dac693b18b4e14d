/** What the first-run notices say. Pure. */

export const WELCOME_TEXT =
  'Herald is ready: its "Herald · …" models make every chat request smaller. Enable them under Manage Models (the chat lists models once a default model exists, i.e. Copilot signed in; without Copilot, use @herald with an endpoint model, which Herald then makes the chat\'s model). Through Copilot\'s own models every request Herald sends counts as a premium request; endpoint models are billed by the token, and come first.';

/**
 * The first-run notice when this VS Code has no chat model at all (no Copilot, no endpoint):
 * what works without Copilot, and the two ways to a first answer.
 */
export function noChatModelText(agents: readonly string[]): string {
  const connect = agents.length > 0 ? ` ${agents.join(', ')} ${agents.length === 1 ? 'is' : 'are'} installed: **Connect Agents** points ${agents.length === 1 ? 'it' : 'them'} at Herald's gateway.` : ' Agent extensions (Continue, Cline, Roo Code) can use Herald through its gateway: Herald: Connect Agent Extensions.';
  return `Herald is ready, but this VS Code has no chat model yet (no Copilot). Add an endpoint (OpenAI-compatible or Anthropic; the key stays in VS Code's secret storage): Herald makes it the chat's model, and @herald answers with it. Copilot's Agent mode needs Copilot.${connect}`;
}

/** The text of the one-time notice about Copilot-hosted models. */
export function copilotTradeoffText(count: number): string {
  return `Herald can also offer your ${count} Copilot model${count === 1 ? '' : 's'} as "Herald · …". Copilot counts every request Herald sends to them (each agent step, each Herald retrieve round) as a premium request, times the model's multiplier: an agent task can cost several premium requests instead of one. Smaller requests still help there (a fuller window, better answers, later compaction). Endpoint models are billed by the token instead.`;
}
