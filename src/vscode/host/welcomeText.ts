/** What the first-run notices say. Pure. */

export const WELCOME_TEXT =
  'Herald is ready: its "Herald · …" models make every chat request smaller. VS Code shows a new provider\'s models in the chat only once you enable them under Manage Models (this needs a default chat model, i.e. Copilot signed in; without Copilot, use @herald with an endpoint model).';

/** The text of the one-time notice about Copilot-hosted models. */
export function copilotTradeoffText(count: number): string {
  return `Herald can also offer your ${count} Copilot model${count === 1 ? '' : 's'} as "Herald · …". Copilot counts every request Herald sends to them (each agent step, each Herald retrieve round) as a premium request, times the model's multiplier: an agent task can cost several premium requests instead of one. Smaller requests still help there (a fuller window, better answers, later compaction). Endpoint models are billed by the token instead.`;
}
