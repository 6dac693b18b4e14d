/**
 * The command line of `npm run train-model`: where to write, whether to verify, and the size of
 * an experimental model. A size override changes the recipe, so it is accepted only with
 * `--out`: the committed folder holds the recipe's model and nothing else.
 */
import type { TrainingSettings } from './train';

export interface TrainArguments {
  readonly verify: boolean;
  /** Folder to write into; undefined for the committed model folder. */
  readonly out?: string;
  /** Settings that differ from the recipe's (empty when training the recipe itself). */
  readonly overrides: Partial<Pick<TrainingSettings, 'vocabularyMax' | 'ngramBuckets' | 'dimension'>>;
}

const SIZE_FLAGS = { '--vocabulary': 'vocabularyMax', '--buckets': 'ngramBuckets', '--dimension': 'dimension' } as const;
type SizeFlag = keyof typeof SIZE_FLAGS;

const USAGE = 'usage: npm run train-model -- [--verify] [--out DIR] [--vocabulary N] [--buckets N] [--dimension N]';

/** Reads train-model's arguments; throws an Error whose message says what to type instead. */
export function parseTrainArguments(argv: readonly string[]): TrainArguments {
  let verify = false;
  let out: string | undefined;
  const overrides: Record<string, number> = {};
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index]!;
    if (flag === '--verify') {
      verify = true;
    } else if (flag === '--out') {
      out = argv[++index];
      if (out === undefined || out.startsWith('--')) throw new Error(`Herald: --out needs a folder; ${USAGE}`);
    } else if (flag in SIZE_FLAGS) {
      const text = argv[++index] ?? '';
      const value = Number(text);
      if (!/^\d+$/.test(text) || value < 1) throw new Error(`Herald: ${flag} needs a whole number above 0, got "${text}"; ${USAGE}`);
      overrides[SIZE_FLAGS[flag as SizeFlag]] = value;
    } else {
      throw new Error(`Herald: unknown argument "${flag}"; ${USAGE}`);
    }
  }
  if (verify && out !== undefined) throw new Error('Herald: --verify trains into a temporary folder and compares with the committed model; leave out --out');
  if (Object.keys(overrides).length > 0 && (verify || out === undefined)) {
    throw new Error('Herald: --vocabulary, --buckets and --dimension make an experimental model; write it elsewhere with --out DIR (the committed folder keeps the recipe\'s model)');
  }
  return { verify, ...(out !== undefined ? { out } : {}), overrides };
}
