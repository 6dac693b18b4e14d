/**
 * How often a client's model asks for the original behind a marker once its session shows one:
 * the chance the pipeline prices a session's first marker at (`RunOptions.firstMarkerRisk`,
 * `cacheEconomics.ts`'s `firstMarkerGain`).
 *
 * A marker is worth eliding only when what it saves repays the retrieve round it may cause, and
 * that depends on the agent: the live bench's agent asks for every session's first marker, while
 * recorded sessions of real models ask for a few percent of markers. Herald does not guess which
 * it serves. It starts from the cautious reading (every first marker is retrieved, so a short
 * session never pays for a round it cannot earn back) and learns from what the flow sees: each
 * session that showed a marker, and whether a `herald_retrieve` followed in it. The estimate is
 * (retrieved + 1) / (sessions + 1): 1 with no evidence, 1/10 after nine sessions whose markers
 * went unasked, and back up as soon as the model asks again.
 *
 * Kept in memory per host (the gateway keeps one per tenant), bounded: a restart starts cautious
 * again.
 */

export class FirstMarkerRate {
  /** Sessions that showed a marker → whether a retrieve followed, least recently seen first. */
  private readonly sessions = new Map<string, boolean>();
  private retrieved = 0;

  constructor(private readonly maxSessions = 2_000) {}

  /** The chance that a session's first marker brings a retrieve round, as seen so far. */
  risk(): number {
    return (this.retrieved + 1) / (this.sessions.size + 1);
  }

  /** A request of `sessionId` went out carrying markers. */
  shown(sessionId: string): void {
    if (this.sessions.has(sessionId)) return;
    this.sessions.set(sessionId, false);
    if (this.sessions.size > this.maxSessions) {
      const [oldest, asked] = this.sessions.entries().next().value as [string, boolean];
      this.sessions.delete(oldest);
      if (asked) this.retrieved--;
    }
  }

  /** The model asked for an original in `sessionId` (Herald's round, or the client's own retrieve tool). */
  asked(sessionId: string): void {
    this.shown(sessionId);
    if (this.sessions.get(sessionId) === true) return;
    this.sessions.set(sessionId, true);
    this.retrieved++;
  }
}

/** The process's record, used when a host passes none. */
export const FIRST_MARKER_RATE = new FirstMarkerRate();

/** One {@link FirstMarkerRate} per tenant of a gateway (tenants apart: one's agent does not set another's prices), bounded. */
export class FirstMarkerRates {
  private readonly rates = new Map<string, FirstMarkerRate>();

  constructor(private readonly maxTenants = 1_000) {}

  /** The tenant's record; a tenant nothing can be found again for (anonymous) gets a fresh, cautious one each time. */
  of(tenantId: string, anonymous = false): FirstMarkerRate {
    if (anonymous) return new FirstMarkerRate();
    let rate = this.rates.get(tenantId);
    if (rate) {
      this.rates.delete(tenantId);
    } else {
      rate = new FirstMarkerRate();
      if (this.rates.size >= this.maxTenants) this.rates.delete(this.rates.keys().next().value as string);
    }
    this.rates.set(tenantId, rate);
    return rate;
  }
}
