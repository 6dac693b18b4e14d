/**
 * The decision history on disk (the extension's global storage), so a window reload keeps the
 * Decisions view, the totals and `/explain`. Bounded by the log's capacity; metadata only, like
 * the log itself. Written through a temporary file, a short while after the last change, and on
 * shutdown. An unreadable or foreign-version file is reported and set aside, never half-read.
 * Pure Node (no `vscode`).
 */
import * as fs from 'node:fs';
import { z } from 'zod';
import type { RequestRecord } from '../../core/flow/requestFlow';
import type { Logger } from '../../core/ports';
import { describeError } from '../../core/errors';
import { writeFileAtomic } from '../../core/files';
import { EMPTY_TOTALS, totalsOf, type DecisionLog, type SessionTotals } from './decisionLog';

/** Files carry this; another version is set aside, not read. */
export const DECISION_STORE_SCHEMA_VERSION = 1;
export const DECISION_STORE_FILE = 'decisions.json';

// A figure a newer version added is 0 in an older file (the file is still read).
const totalsSchema = z.object(Object.fromEntries(Object.keys(EMPTY_TOTALS).map((key) => [key, z.number().default(0)])) as Record<keyof SessionTotals, z.ZodDefault<z.ZodNumber>>);

/**
 * How the saved totals were worked out. Files without it predate Herald counting every round it
 * sent and its own calls apart: their totals are worked out again from the records they keep.
 */
export const FIGURES_VERSION = 2;

/** Enough of a record to show it; the rest of a record we wrote ourselves is kept as it was. */
const recordSchema = z
  .object({
    id: z.string(),
    startedAt: z.number(),
    model: z.string(),
    status: z.enum(['optimized', 'served-from-cache', 'forwarded-original', 'optimizer-off', 'failed', 'cancelled']),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
    optimizeMs: z.number(),
    totalMs: z.number(),
    decisions: z.array(z.object({ strategy: z.string(), status: z.string(), action: z.string(), reason: z.string(), tokensBefore: z.number(), tokensAfter: z.number(), durationMs: z.number(), handles: z.array(z.string()) }).loose()),
    handles: z.array(z.string()),
    retrievals: z.number(),
    replayedMessages: z.number(),
  })
  .loose();

const fileSchema = z.object({ schema: z.literal(DECISION_STORE_SCHEMA_VERSION), figures: z.number().optional(), totals: totalsSchema, records: z.array(recordSchema) });

/** Reads a saved history; undefined (and a warning) when there is none or it cannot be used. */
export function readDecisionFile(file: string, logger: Logger): { records: RequestRecord[]; totals: SessionTotals } | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    const parsed = fileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (!parsed.success) {
      logger.warn('decisions-unreadable', `Herald: ${file} is not a decision history this version reads; it was set aside as ${file}.unreadable and the history starts empty`);
      fs.renameSync(file, `${file}.unreadable`);
      return undefined;
    }
    const records = parsed.data.records as unknown as RequestRecord[];
    if (parsed.data.figures !== FIGURES_VERSION) {
      logger.info('decisions-totals-recounted', `Herald: the decision history in ${file} was saved by an older version; its totals were worked out again from the ${records.length} requests it keeps`);
      return { records, totals: totalsOf(records) };
    }
    return { records, totals: parsed.data.totals };
  } catch (error) {
    logger.warn('decisions-unreadable', `Herald: the decision history ${file} could not be read (${describeError(error)}); it starts empty`);
    return undefined;
  }
}

export function writeDecisionFile(file: string, records: readonly RequestRecord[], totals: SessionTotals): void {
  writeFileAtomic(file, JSON.stringify({ schema: DECISION_STORE_SCHEMA_VERSION, figures: FIGURES_VERSION, totals, records }));
}

/** Keeps a log in a file: restores it now, saves it after changes. */
export class DecisionStore {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription: { dispose(): void };

  constructor(private readonly file: string, private readonly log: DecisionLog, private readonly logger: Logger, private readonly delayMs = 500) {
    const saved = readDecisionFile(file, logger);
    if (saved) log.restore(saved.records, saved.totals);
    this.subscription = log.onDidChange(() => this.schedule());
  }

  /** Writes now (on shutdown, and in tests). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    try {
      writeDecisionFile(this.file, this.log.list(), this.log.sessionTotals());
    } catch (error) {
      this.logger.warn('decisions-unsaved', `Herald: the decision history could not be saved to ${this.file}: ${describeError(error)}`);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    if (this.timer) this.flush();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
  }
}
