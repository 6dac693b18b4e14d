/**
 * The requests a gateway is still answering, so a stop (SIGTERM) can let them finish: stop
 * accepting, wait for the ones in flight up to a limit, then close what is left.
 */
import type { ServerResponse } from 'node:http';

export class InFlight {
  private count = 0;
  private readonly waiters: (() => void)[] = [];

  /** Counts a response until its connection is done with it (ended or cut). */
  track(response: ServerResponse): void {
    this.count++;
    response.once('close', () => {
      this.count--;
      if (this.count === 0) for (const waiter of this.waiters.splice(0)) waiter();
    });
  }

  get size(): number {
    return this.count;
  }

  /** Resolves true once nothing is in flight, or false when `limitMs` passed first. */
  idle(limitMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(done);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve(false);
      }, limitMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(done);
    });
  }
}
