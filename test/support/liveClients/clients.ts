/**
 * The real agent CLIs, installed from npm at pinned versions into a cache folder outside the
 * repository's dependencies (one folder per package and version, installed once), and driven
 * non-interactively: Claude Code (`claude -p`, Anthropic Messages), Codex (`codex exec`, the
 * Responses API; Codex no longer accepts `wire_api = "chat"`) and Qwen Code (`qwen`, OpenAI
 * Chat Completions).
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WireApi } from '../../../src/core/costs/billingBlocks';

export type ClientId = 'claude-code' | 'codex' | 'qwen-code';

/** Where one run of a client sends its requests and works. */
export interface RunSetup {
  readonly binary: string;
  /** The provider's (or Herald's) base URL without `/v1`. */
  readonly baseUrl: string;
  readonly workspace: string;
  /** A fresh home folder: no setting or session of the machine's user leaks in. */
  readonly home: string;
  readonly prompt: string;
  readonly timeoutMs: number;
}

export interface ClientRun {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  /** The final answer the client printed. */
  readonly finalText: string;
  readonly durationMs: number;
}

export interface LiveClient {
  readonly id: ClientId;
  readonly packageName: string;
  readonly version: string;
  readonly binName: string;
  readonly api: WireApi;
  readonly model: string;
  run(setup: RunSetup): Promise<ClientRun>;
}

/** The cache folder the CLIs are installed into (HERALD_LIVE_CLIENTS_CACHE, default ~/.cache/herald-live-clients). */
export function clientCacheRoot(): string {
  return process.env.HERALD_LIVE_CLIENTS_CACHE ?? path.join(os.homedir(), '.cache', 'herald-live-clients');
}

/**
 * The client's binary, installed first when the cache does not hold this version. Throws, with
 * npm's own words, when it cannot be installed or does not run.
 */
export function installClient(client: LiveClient, cacheRoot = clientCacheRoot()): string {
  const folder = path.join(cacheRoot, `${client.packageName.replace(/[@/]/g, '_')}_${client.version}`);
  const binary = path.join(folder, 'node_modules', '.bin', client.binName);
  const spec = `${client.packageName}@${client.version}`;
  if (!fs.existsSync(binary)) {
    fs.mkdirSync(folder, { recursive: true });
    const npm = spawnSync('npm', ['install', '--prefix', folder, '--no-audit', '--no-fund', '--no-save', spec], { encoding: 'utf8', timeout: 600_000 });
    if (npm.status !== 0 || !fs.existsSync(binary)) {
      const said = `${npm.stderr ?? ''}${npm.stdout ?? ''}`.trim().split('\n').slice(-8).join('\n');
      throw new Error(`Herald live bench: could not install ${spec} into ${folder} (npm ${npm.error ? `failed to start: ${npm.error.message}` : `exited ${String(npm.status)}`}):\n${said}`);
    }
  }
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() } });
  if (version.status !== 0 || !version.stdout.includes(client.version)) {
    throw new Error(`Herald live bench: ${spec} is installed at ${binary} but \`--version\` did not answer ${client.version} (exit ${String(version.status)}): ${`${version.stdout}${version.stderr}`.trim().slice(0, 400)}`);
  }
  return binary;
}

function baseEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1', TZ: 'UTC' };
}

/** Runs a command in its own process group, killed whole when it outlives the timeout. */
function runProcess(binary: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, timeoutMs: number): Promise<Omit<ClientRun, 'finalText'>> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(binary, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, timedOut, stdout, stderr, durationMs: Date.now() - started });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, timedOut, stdout, stderr: `${stderr}${error.message}`, durationMs: Date.now() - started });
    });
  });
}

export const CLAUDE_CODE: LiveClient = {
  id: 'claude-code',
  packageName: '@anthropic-ai/claude-code',
  version: '2.1.197',
  binName: 'claude',
  api: 'anthropic',
  model: 'claude-sonnet-4-5',
  async run(setup) {
    const env = {
      ...baseEnv(setup.home),
      // Claude Code refuses --dangerously-skip-permissions as root unless it is told it runs in a sandbox.
      IS_SANDBOX: '1',
      ANTHROPIC_BASE_URL: setup.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-live-bench',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
    };
    const run = await runProcess(setup.binary, ['-p', setup.prompt, '--dangerously-skip-permissions', '--output-format', 'json', '--model', this.model], env, setup.workspace, setup.timeoutMs);
    let finalText = '';
    try {
      const parsed = JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as { result?: unknown };
      finalText = typeof parsed.result === 'string' ? parsed.result : '';
    } catch {
      finalText = '';
    }
    return { ...run, finalText };
  },
};

export const CODEX: LiveClient = {
  id: 'codex',
  packageName: '@openai/codex',
  version: '0.171.0',
  binName: 'codex',
  api: 'responses',
  model: 'gpt-5.1-codex',
  async run(setup) {
    const codexHome = path.join(setup.home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    const lastMessage = path.join(setup.home, 'last-message.txt');
    const provider = `model_providers.scripted={name="Scripted",base_url="${setup.baseUrl}/v1",env_key="LIVE_BENCH_KEY",wire_api="responses",request_max_retries=0,stream_max_retries=0}`;
    const env = { ...baseEnv(setup.home), CODEX_HOME: codexHome, LIVE_BENCH_KEY: 'sk-live-bench' };
    const args = ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-c', 'model_provider=scripted', '-c', provider, '-m', this.model, '-o', lastMessage, setup.prompt];
    const run = await runProcess(setup.binary, args, env, setup.workspace, setup.timeoutMs);
    const finalText = fs.existsSync(lastMessage) ? fs.readFileSync(lastMessage, 'utf8').trim() : '';
    return { ...run, finalText };
  },
};

export const QWEN_CODE: LiveClient = {
  id: 'qwen-code',
  packageName: '@qwen-code/qwen-code',
  version: '0.24.4',
  binName: 'qwen',
  api: 'chat',
  model: 'qwen3-coder-plus',
  async run(setup) {
    // Text output: only the model's own words. (Its JSON output lists every tool result and, a few hundred
    // kilobytes long, comes out cut short when the process exits before the pipe is drained.)
    const args = ['--auth-type', 'openai', '--openai-api-key', 'sk-live-bench', '--openai-base-url', `${setup.baseUrl}/v1`, '-m', this.model, '--yolo', '-o', 'text', setup.prompt];
    const run = await runProcess(setup.binary, args, baseEnv(setup.home), setup.workspace, setup.timeoutMs);
    return { ...run, finalText: run.stdout.trim() };
  },
};

export const LIVE_CLIENTS: readonly LiveClient[] = [CLAUDE_CODE, CODEX, QWEN_CODE];
