/**
 * A strategy's options declared once, as a zod object: each field's type, default, bounds and
 * a one-line description. From it come the defaults, the validation of what a user sets, the
 * `contributes.configuration` entry of the strategy's parameters and the README's table.
 */
import { z } from 'zod';

/** A strategy's option schema: a zod object whose every field has a default and a description. */
export type OptionSchema = z.ZodObject;

/** One option as the manifest and the README show it. */
export interface OptionDescription {
  readonly name: string;
  /** JSON type: boolean, integer, number, string or array. */
  readonly type: string;
  readonly default: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  /** The allowed values of a string option that takes one of a few. */
  readonly values?: readonly string[];
  readonly description: string;
}

/** Every option's default, as the schema gives them (a fresh object each call). */
export function optionDefaults<Schema extends OptionSchema>(schema: Schema): z.output<Schema> {
  return schema.parse({});
}

/**
 * The strategy's one-sentence summary: the schema object's own description (what its
 * `enabled` setting and the README's strategy table say it does); empty when none is given.
 */
export function strategySummary(schema: OptionSchema | undefined): string {
  return schema?.description ?? '';
}

/** Each option of `schema`, in declaration order, with its type, default, bounds and description. */
export function describeOptions(schema: OptionSchema): OptionDescription[] {
  const json = z.toJSONSchema(schema, { io: 'input' }) as { properties?: Record<string, Record<string, unknown>> };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const description = typeof property.description === 'string' ? property.description : '';
    const values = Array.isArray(property.enum) ? (property.enum as string[]) : undefined;
    return {
      name,
      type: typeof property.type === 'string' ? property.type : values ? 'string' : 'object',
      default: property.default,
      // An integer's implied safe-integer bounds are no range a reader needs.
      ...(typeof property.minimum === 'number' && property.minimum > Number.MIN_SAFE_INTEGER ? { minimum: property.minimum } : {}),
      ...(typeof property.maximum === 'number' && property.maximum < Number.MAX_SAFE_INTEGER ? { maximum: property.maximum } : {}),
      ...(values ? { values } : {}),
      description,
    };
  });
}

/**
 * Checks what a user set for a strategy against its schema: unknown names and wrong types or
 * values fail with the option, the strategy and what was expected.
 */
export function checkOptions(strategy: string, schema: OptionSchema, values: Readonly<Record<string, unknown>>): void {
  checkOptionNames(strategy, schema, values);
  // Nothing set passes or fails the same way every time (a schema never changes), and most
  // pipelines set nothing: that check is made once per schema, not once per pipeline.
  const empty = Object.keys(values).length === 0;
  if (empty && emptyPassed.has(schema)) return;
  const parsed = schema.safeParse(values);
  if (parsed.success) {
    if (empty) emptyPassed.add(schema);
    return;
  }
  const name = String(parsed.error.issues[0]!.path[0] ?? '');
  const option = describeOptions(schema).find((each) => each.name === name);
  const expected = option === undefined ? parsed.error.issues[0]!.message : expectation(option);
  throw new Error(`Herald: ${strategy} option "${name}" must be ${expected}, got ${JSON.stringify(values[name])}`);
}

/** Schemas that accepted an empty set of options. */
const emptyPassed = new WeakSet<OptionSchema>();

/** What an option takes, in words: "between 0 and 1", "a whole number of at least 0", "one of low, medium". */
function expectation(option: OptionDescription): string {
  if (option.values !== undefined) return `one of ${option.values.join(', ')}`;
  if (option.type === 'boolean') return 'true or false';
  if (option.type === 'array') return 'a list of strings';
  if (option.type === 'string') return 'a string';
  const kind = option.type === 'integer' ? 'a whole number' : 'a number';
  if (option.minimum !== undefined && option.maximum !== undefined) return `${option.type === 'integer' ? 'a whole number ' : ''}between ${option.minimum} and ${option.maximum}`;
  if (option.minimum !== undefined) return `${kind} of at least ${option.minimum}`;
  if (option.maximum !== undefined) return `${kind} of at most ${option.maximum}`;
  return kind;
}

/** Fails on a name the schema does not declare, listing the names it does. */
export function checkOptionNames(strategy: string, schema: OptionSchema, values: Readonly<Record<string, unknown>>): void {
  const known = Object.keys(schema.shape);
  for (const name of Object.keys(values)) {
    if (!known.includes(name)) throw new Error(`Herald: unknown option "${name}" for strategy "${strategy}" (known: ${known.join(', ') || 'none'})`);
  }
}
