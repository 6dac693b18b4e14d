/**
 * The optimizer's warm-up (`core/pipeline/warmUp.ts`) a few seconds after the extension starts,
 * once, on the embedded sample session: the user's first request through Herald then finds the
 * tokenizer's tables, the grammars and the model loaded and the hot paths compiled. A first
 * request of the 100k-token Claude Code conversation took 293 to 327 ms in a fresh process and
 * 188 to 190 ms after the warm-up (which took about 200 to 250 ms, off the request path); a
 * 4k-token one 33 to 37 ms against 25 to 36. It waits until activation is done, runs only while
 * Herald is on, and writes nothing.
 */
import type { Logger } from '../../core/ports';
import type { WarmUpOutcome } from '../../core/pipeline/warmUp';
import { sampleRequest } from '../../cli/sample';

/** How long after activation the warm-up starts. */
export const WARM_UP_DELAY_MS = 3_000;

/** Schedules the warm-up; `dispose` cancels it if it has not started. */
export function warmUpSoon(
  optimizer: { warmUp(body: Record<string, unknown>): Promise<WarmUpOutcome> },
  logger: Logger,
  enabled: () => boolean,
  delayMs = WARM_UP_DELAY_MS,
): { dispose(): void } {
  const timer = setTimeout(() => {
    if (!enabled()) return;
    void optimizer.warmUp(sampleRequest()).then((outcome) => {
      if (outcome.ok) logger.info('optimizer-warmed-up', `Herald: warmed up the optimizer on the sample session in ${Math.round(outcome.ms)} ms (nothing written), so your first request does not pay for it`);
      else logger.warn('optimizer-warm-up-failed', `Herald: warming up the optimizer failed (${outcome.error}); your first request loads what it needs instead`);
    });
  }, delayMs);
  // A timer must not keep a process alive (tests, a host shutting down).
  timer.unref?.();
  return { dispose: () => clearTimeout(timer) };
}
