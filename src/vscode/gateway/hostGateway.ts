/**
 * The gateway as the extension runs it: the host's own optimizer, stash and decision log (its
 * requests appear in the Decisions view beside the chat's), started, moved or stopped when
 * the settings change. Pure: no `vscode` here, so it is tested outside the editor.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../core/ports';
import { describeError } from '../../core/errors';
import { createGateway, type FetchLike, type Gateway, type GatewayOptimizer, type GatewayRecord } from '../../gateway';
import type { Optimizer } from '../optimizer/optimizer';
import type { GatewaySettings } from './gatewaySettings';
import type { GatewayStatus } from './gatewayStatus';

export interface HostGatewayServices {
  /** The host's optimizer now (it is rebuilt when the settings change). */
  optimizer(): Optimizer;
  /** Whether the optimizer is on (`herald.enabled`). */
  enabled(): boolean;
  /** Most rounds of in-turn retrieval (`herald.retrieve.maxRounds`). */
  retrieveRounds(): number;
  /** Where each request's record goes (the Decisions view's log). */
  record(record: GatewayRecord): void;
  readonly logger: Logger;
  readonly status: GatewayStatus;
  /** The upstream fetch, for tests. */
  readonly fetch?: FetchLike;
}

/**
 * The host optimizer as the gateway asks for it: one pipeline, the window left to the client.
 * The extension's gateway is its user's own (loopback, their stash and Decisions view), so every
 * tenant gets the same view.
 */
export function hostGatewayOptimizer(services: Pick<HostGatewayServices, 'optimizer' | 'enabled'>): GatewayOptimizer {
  return {
    get tokens() {
      return services.optimizer().tokens;
    },
    forTenant: () => ({
      optimize: services.enabled() ? (request, signal) => services.optimizer().run(request, Number.POSITIVE_INFINITY, signal) : undefined,
      afterResponse: (request, answer, sessionId) => services.optimizer().afterResponse(request, answer, sessionId),
      retrieve: (handle) => services.optimizer().stash.retrieve(handle),
    }),
  };
}

export class HostGateway {
  private gateway: Gateway | undefined;
  private running: string | undefined;
  /** Tenants only matter behind one gateway for several people; the extension's is the user's own. */
  private readonly tenantKey = randomBytes(32);

  constructor(private readonly services: HostGatewayServices) {}

  /** Starts, restarts or stops the gateway as the settings say. */
  async apply(settings: GatewaySettings): Promise<void> {
    const wanted = settings.enabled ? JSON.stringify([settings.port, settings.openaiBaseUrl, settings.anthropicBaseUrl]) : undefined;
    if (wanted === this.running) return;
    await this.stop();
    if (!wanted) return;
    const services = this.services;
    const gateway = createGateway({
      port: settings.port,
      openaiBaseUrl: settings.openaiBaseUrl,
      anthropicBaseUrl: settings.anthropicBaseUrl,
      // Read on every request, so a changed herald.retrieve.maxRounds applies at once.
      get retrieveRounds() {
        return services.retrieveRounds();
      },
      optimizer: hostGatewayOptimizer(this.services),
      tenantKey: this.tenantKey,
      logger: this.services.logger,
      onRecord: (record) => this.services.record(record),
      ...(this.services.fetch ? { fetch: this.services.fetch } : {}),
    });
    try {
      await gateway.listen();
    } catch (error) {
      const problem = `port ${settings.port} is not free (${describeError(error)}); set herald.gateway.port to another`;
      this.services.logger.error('gateway-not-started', `Herald: the gateway could not start: ${problem}`);
      this.services.status.set(undefined, problem);
      return;
    }
    this.gateway = gateway;
    this.running = wanted;
    this.services.status.set(gateway.url());
    this.services.logger.info('gateway-started', `Herald: the gateway listens on ${gateway.url()}`);
  }

  async stop(): Promise<void> {
    const gateway = this.gateway;
    this.gateway = undefined;
    this.running = undefined;
    if (gateway) await gateway.close();
    this.services.status.set(undefined);
  }
}
