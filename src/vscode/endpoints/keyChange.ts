/** What "Set the API key" tells the user afterwards. Pure (no `vscode`). */

/** What "Set the API key" did: stored a key, removed it (an empty answer), or nothing (dismissed). */
export type KeyChange = 'stored' | 'removed' | 'unchanged';

/** The confirmation of a key change, or undefined when nothing changed. */
export function keyChangeText(name: string, change: KeyChange): string | undefined {
  if (change === 'stored') return `The API key of "${name}" is saved in VS Code's secret storage (never in settings).`;
  if (change === 'removed') return `"${name}" now has no API key: requests go out without one.`;
  return undefined;
}
