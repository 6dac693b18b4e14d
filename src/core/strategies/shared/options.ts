/**
 * Typed readers for a strategy's options. The runner has already rejected unknown names and
 * applied defaults; these check each value's type so a wrong setting fails loudly.
 */

/** The option's value, which must be a finite number. */
export function numberOption(options: Readonly<Record<string, unknown>>, name: string): number {
  const value = options[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`Herald: option "${name}" must be a finite number, got ${JSON.stringify(value)}`);
  return value;
}

/** The option's value, which must be true or false. */
export function booleanOption(options: Readonly<Record<string, unknown>>, name: string): boolean {
  const value = options[name];
  if (typeof value !== 'boolean') throw new Error(`Herald: option "${name}" must be true or false, got ${JSON.stringify(value)}`);
  return value;
}
