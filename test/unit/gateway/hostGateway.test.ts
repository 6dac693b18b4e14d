/** The extension's gateway, outside the editor: its settings, and the host's optimizer and decision log behind it. */
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { DecisionLog } from '../../../src/vscode/decisions/decisionLog';
import { GATEWAY_CONFIGURATION, gatewaySettingsSchema, readGatewaySettings } from '../../../src/vscode/gateway/gatewaySettings';
import { GatewayStatus } from '../../../src/vscode/gateway/gatewayStatus';
import { HostGateway } from '../../../src/vscode/gateway/hostGateway';
import { Optimizer } from '../../../src/vscode/optimizer/optimizer';
import { readSettings } from '../../../src/vscode/settings/settingsSchema';
import { FakeUpstream } from './fakeUpstream';
import { anthropicConversation } from './harness';
import { anthropicMessage } from './providerAnswers';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the extension\'s gateway', function () {
  this.timeout(20_000);

  it('is off by default and reads its settings with defaults for bad values', () => {
    assert.equal(readGatewaySettings(() => undefined).settings.enabled, false);
    const { settings, problems } = readGatewaySettings((key) => ({ enabled: true, port: 'eighty', openaiBaseUrl: 'http://127.0.0.1:9/v1' } as Record<string, unknown>)[key]);
    assert.deepEqual(settings, { enabled: true, port: 8787, openaiBaseUrl: 'http://127.0.0.1:9/v1', anthropicBaseUrl: 'https://api.anthropic.com' });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /herald\.gateway\.port: "eighty" is not valid/);
    assert.deepEqual(Object.keys(GATEWAY_CONFIGURATION).map((key) => key.replace('herald.gateway.', '')), Object.keys(gatewaySettingsSchema.shape), 'every setting is declared for the manifest');
  });

  it('runs on the host\'s optimizer: its requests reach the Decisions view\'s log, its port the status bar\'s tooltip; it stops when turned off', async () => {
    const upstream = new FakeUpstream({ kind: 'json', body: anthropicMessage({ blocks: [{ type: 'text', text: 'fine' }] }) });
    const url = await upstream.start();
    const logger = new RecordingLogger();
    const stash = new Stash({ store: new MemoryBlobStore() });
    const hostSettings = readSettings(() => undefined).settings;
    const optimizer = new Optimizer(createStrategies(), stash, logger, hostSettings);
    const log = new DecisionLog();
    const status = new GatewayStatus();
    const gateway = new HostGateway({ optimizer: () => optimizer, enabled: () => true, retrieveRounds: () => 4, record: (record) => log.add(record), logger, status });
    const port = await freePort();
    try {
      await gateway.apply({ enabled: true, port, openaiBaseUrl: `${url}/v1`, anthropicBaseUrl: url });
      assert.match(status.tooltipLine(), new RegExp(`http://127\\.0\\.0\\.1:${port}`));
      const response = await fetch(`http://127.0.0.1:${port}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body: JSON.stringify(anthropicConversation()) });
      assert.equal(response.status, 200);
      const record = log.last()!;
      assert.equal(record.status, 'optimized');
      assert.ok(record.tokensAfter < record.tokensBefore, 'the host\'s pipeline ran');
      assert.ok(record.handles.length > 0);
      const handle = record.handles[0]!;
      assert.ok(await stash.retrieve(handle), 'the original is in the host\'s stash (Herald: Retrieve Elided Content finds it)');

      await gateway.apply({ enabled: false, port, openaiBaseUrl: `${url}/v1`, anthropicBaseUrl: url });
      assert.equal(status.tooltipLine(), '');
      await assert.rejects(fetch(`http://127.0.0.1:${port}/v1/messages`, { method: 'POST', body: '{}' }));
    } finally {
      await gateway.stop();
      await upstream.close();
    }
  });

  it('says why when its port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const status = new GatewayStatus();
    const logger = new RecordingLogger();
    const optimizer = new Optimizer(createStrategies(), new Stash({ store: new MemoryBlobStore() }), logger, readSettings(() => undefined).settings);
    const gateway = new HostGateway({ optimizer: () => optimizer, enabled: () => true, retrieveRounds: () => 4, record: () => undefined, logger, status });
    try {
      await gateway.apply({ enabled: true, port, openaiBaseUrl: 'https://api.openai.com/v1', anthropicBaseUrl: 'https://api.anthropic.com' });
      assert.match(status.tooltipLine(), /Gateway not running: port \d+ is not free/);
      assert.ok(logger.lines.some((line) => line.code === 'gateway-not-started'));
    } finally {
      await gateway.stop();
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
