/** What the first-run notices say. Pure. */

export const WELCOME_TEXT =
  'Herald is ready: its "Herald · …" models make every chat request smaller. Enable them under Manage Models (the chat lists models once a default model exists, i.e. Copilot signed in; without Copilot, use @herald with an endpoint model). Through Copilot\'s own models every request Herald sends counts as a premium request; endpoint models are billed by the token, and come first.';

/** The text of the one-time notice about Copilot-hosted models. */
export function copilotTradeoffText(count: number): string {
  return `Herald can also offer your ${count} Copilot model${count === 1 ? '' : 's'} as "Herald · …". Copilot counts every request Herald sends to them (each agent step, each Herald retrieve round) as a premium request, times the model's multiplier: an agent task can cost several premium requests instead of one. Smaller requests still help there (a fuller window, better answers, later compaction). Endpoint models are billed by the token instead.`;
}
