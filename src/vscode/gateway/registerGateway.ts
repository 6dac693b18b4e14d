/**
 * The extension's gateway: started when `herald.gateway.enabled` is on, moved or stopped when
 * the gateway settings change, its requests recorded in the Decisions view's log.
 */
import * as vscode from 'vscode';
import { withCost } from '../decisions/requestCost';
import type { HeraldHost } from '../host/heraldHost';
import { readGatewaySettings, type GatewaySettings } from './gatewaySettings';
import { gatewayStatus } from './gatewayStatus';
import { HostGateway } from './hostGateway';

export function registerGateway(host: HeraldHost): vscode.Disposable[] {
  const gateway = new HostGateway({
    optimizer: () => host.optimizer,
    enabled: () => host.settings().enabled,
    retrieveRounds: () => host.settings().retrieveRounds,
    // Priced like the chat's own requests: the provider's usage at the price table's prices.
    record: (record) => host.log.add(withCost(record, host.settings().prices)),
    logger: host.logger,
    status: gatewayStatus,
  });
  const apply = (): void => {
    const configuration = vscode.workspace.getConfiguration('herald.gateway');
    const { settings, problems } = readGatewaySettings((key: keyof GatewaySettings) => configuration.get(key));
    for (const problem of problems) host.logger.warn('setting-ignored', `Herald: ${problem}`);
    void gateway.apply(settings);
  };
  apply();
  return [
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('herald.gateway')) apply();
    }),
    new vscode.Disposable(() => void gateway.stop()),
  ];
}
