/**
 * Typed reads of a strategy's validated options. The runner has already merged defaults and
 * refused unknown names; these catch a wrong type (a setting typed by hand) with a message
 * that names the strategy and the option.
 */

export function numberOption(options: Readonly<Record<string, unknown>>, strategy: string, name: string, minimum = -Infinity): number {
  const value = options[name];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < minimum) {
    throw new Error(`Herald: option "${name}" of ${strategy} must be a number${minimum > -Infinity ? ` of at least ${minimum}` : ''}, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function booleanOption(options: Readonly<Record<string, unknown>>, strategy: string, name: string): boolean {
  const value = options[name];
  if (typeof value !== 'boolean') throw new Error(`Herald: option "${name}" of ${strategy} must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

export function stringOption<T extends string>(options: Readonly<Record<string, unknown>>, strategy: string, name: string, allowed?: readonly T[]): T {
  const value = options[name];
  if (typeof value !== 'string' || (allowed && !allowed.includes(value as T))) {
    throw new Error(`Herald: option "${name}" of ${strategy} must be ${allowed ? `one of ${allowed.join(', ')}` : 'a string'}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

export function stringListOption(options: Readonly<Record<string, unknown>>, strategy: string, name: string): string[] {
  const value = options[name];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new Error(`Herald: option "${name}" of ${strategy} must be a list of strings, got ${JSON.stringify(value)}`);
  }
  return value as string[];
}

/** A shell-style glob (`*` any run, `?` one character), matched whole and case-insensitively. */
export function matchesGlob(value: string, glob: string): boolean {
  const pattern = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`, 'i').test(value);
}
