/**
 * The names of each strategy's settings. VS Code's Settings editor builds a setting's title from
 * its key (capital letters start words, a dot starts a section, `_` stays as it is), so
 * `herald.strategy.command_digest.enabled` read "Strategy › Command_digest: Enabled". The key
 * carries the strategy id in camel case (`herald.strategy.commandDigest.enabled`, shown as
 * "Strategy › Command Digest: Enabled"); the id itself, as decisions and the CLI name it, opens
 * the setting's description. Settings written under the old keys are still read (the new key
 * wins) and the manifest marks those keys deprecated. Pure (no `vscode`).
 */

/** `command_digest` → `commandDigest`. */
export function strategySettingName(id: string): string {
  return id.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** The key under `herald.` of a strategy's switch or parameters (what `getConfiguration('herald')` reads). */
export function strategySettingKey(id: string, field: 'enabled' | 'options'): string {
  return `strategy.${strategySettingName(id)}.${field}`;
}

/** The same key as written before the rename (`strategy.command_digest.enabled`), still read when the new one is unset. */
export function legacyStrategySettingKey(id: string, field: 'enabled' | 'options'): string {
  return `strategy.${id}.${field}`;
}

/** What VS Code's `inspect` says of a setting: the values the user set at each level. */
export interface InspectedSetting {
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/**
 * Only what the user set for each strategy, the new key first and the old one when the new one
 * is unset (`inspect` is the configuration's, keys under `herald.`). The defaults in package.json
 * document the strategies' own defaults; passing them on as overrides would pin a stale copy.
 * The values are checked by the settings schema (`settingsSchema.ts`).
 */
export function userStrategySettings(ids: readonly string[], inspect: (key: string) => InspectedSetting | undefined): Record<string, { enabled?: unknown; options?: unknown }> {
  const strategies: Record<string, { enabled?: unknown; options?: unknown }> = {};
  const read = (id: string, field: 'enabled' | 'options'): unknown => userValue(inspect(strategySettingKey(id, field))) ?? userValue(inspect(legacyStrategySettingKey(id, field)));
  for (const id of ids) {
    const enabled = read(id, 'enabled');
    const options = read(id, 'options');
    if (enabled !== undefined || options !== undefined) strategies[id] = { ...(enabled !== undefined ? { enabled } : {}), ...(options !== undefined ? { options } : {}) };
  }
  return strategies;
}

function userValue(inspected: InspectedSetting | undefined): unknown {
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
}
