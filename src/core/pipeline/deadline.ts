/**
 * A deadline that holds for synchronous work. A timer cannot interrupt a strategy that never
 * yields, so every loop that can run long (over messages, lines, terms) calls `check()`, which
 * throws {@link DeadlineExceededError} once the time is up; the runner catches it and skips the
 * strategy (its own limit) or sends the request as it came (the pipeline's budget).
 *
 * `check()` is meant to be called once per line: it reads the clock only every so many calls,
 * the stride adapting so that about a millisecond passes between reads (reading the clock costs
 * a few hundred nanoseconds on a loaded machine, a line's work often less).
 */

/**
 * The pipeline's default budget for one request, in ms. At the goals (5 ms per 10k tokens on a
 * first decision, 10 ms for a turn after) even a request of a million tokens finishes in a tenth
 * of it, on a machine busy enough to run several times slower; past it something is wrong with
 * the input or the machine, and the request goes out as it came rather than hold the user back
 * longer than the one strategy limit (5 s) already could.
 */
export const DEFAULT_PIPELINE_DEADLINE_MS = 5000;

/** Which budget ran out: one strategy's time limit, or the whole pipeline's. */
export type DeadlineScope = 'strategy' | 'pipeline';

/** Thrown by {@link Deadline.check} when the time is up; the runner turns it into a fail-open decision. */
export class DeadlineExceededError extends Error {
  constructor(readonly scope: DeadlineScope, readonly limitMs: number) {
    super(scope === 'pipeline' ? `Herald: the pipeline ran past its ${limitMs} ms deadline` : `Herald: the strategy ran past its ${limitMs} ms time limit`);
    this.name = 'DeadlineExceededError';
  }
}

export function isDeadlineExceeded(error: unknown): error is DeadlineExceededError {
  return error instanceof DeadlineExceededError;
}

const defaultClock = (): number => performance.now();

/** Longest stride between clock reads, in calls. */
const MAX_STRIDE = 1024;
/** Aimed time between clock reads, in ms: the most a deadline overruns by, give or take one call's work. */
const READ_EVERY_MS = 1;

export class Deadline {
  private readonly endsAt: number;
  private countdown = 1;
  private stride = 1;
  private lastRead: number;
  private passed = false;

  /**
   * @param limitMs how long from now (Infinity for no limit).
   * @param scope what runs out when it passes (reported in the error).
   * @param budgetMs the limit the error names (the configured one, when this deadline is what is left of it).
   */
  constructor(readonly limitMs: number, readonly scope: DeadlineScope = 'strategy', private readonly now: () => number = defaultClock, readonly budgetMs = limitMs) {
    this.lastRead = now();
    this.endsAt = this.lastRead + limitMs;
  }

  /** A deadline that never passes (a strategy run outside the pipeline, a test). */
  static none(): Deadline {
    return new Deadline(Infinity);
  }

  /** Throws {@link DeadlineExceededError} when the time is up; cheap enough for every line of a loop. */
  check(): void {
    if (--this.countdown > 0) return;
    this.read();
  }

  /** Whether the time is up (reads the clock). */
  get expired(): boolean {
    if (!this.passed && this.now() >= this.endsAt) this.passed = true;
    return this.passed;
  }

  /** Milliseconds left (0 when passed). */
  get remainingMs(): number {
    return Math.max(0, this.endsAt - this.now());
  }

  private read(): void {
    const now = this.now();
    if (now >= this.endsAt) {
      this.passed = true;
      this.countdown = 1;
      throw new DeadlineExceededError(this.scope, this.budgetMs);
    }
    const since = now - this.lastRead;
    this.lastRead = now;
    if (since < READ_EVERY_MS / 2 && this.stride < MAX_STRIDE) this.stride *= 2;
    else if (since > READ_EVERY_MS * 2 && this.stride > 1) this.stride = Math.max(1, this.stride >> 2);
    // Never stride past the end: close to it, the clock is read on every call.
    this.countdown = this.endsAt - now < READ_EVERY_MS * 2 ? 1 : this.stride;
  }
}

/**
 * The deadline of the strategy running now, for helpers deep in a synchronous call (content
 * cleaners, detectors) that are not handed the strategy's context. The runner sets it around
 * a strategy's synchronous call only; work after an `await` uses the context's own deadline.
 */
let current: Deadline | undefined;

/** Throws when the running strategy's deadline has passed; a no-op outside a strategy. */
export function checkDeadline(): void {
  current?.check();
}

/** Runs `work` with `deadline` as the one {@link checkDeadline} checks. */
export function withDeadline<T>(deadline: Deadline, work: () => T): T {
  const outer = current;
  current = deadline;
  try {
    return work();
  } finally {
    current = outer;
  }
}
