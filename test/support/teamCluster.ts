/**
 * The README's team setup, started for real on loopback: redis-server, `herald serve` replicas
 * from the built CLI (dist/cli.js) on a Redis store, and nginx in front with the configuration
 * the README shows (its ports replaced by free ones). Tests skip when redis-server or nginx is
 * not installed, unless HERALD_REQUIRE_TEAM_TOOLS=1 (set by .ci/run, which installs both).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const README = path.join(PROJECT_ROOT, 'README.md');

/** Why the team tests cannot run here, or undefined; throws when they must (HERALD_REQUIRE_TEAM_TOOLS=1). */
export function missingTeamTools(): string | undefined {
  const missing = ['redis-server', 'nginx'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`]).status !== 0);
  if (missing.length === 0) return undefined;
  const message = `Herald: the team gateway tests need ${missing.join(' and ')} (apt-get install redis-server nginx-light)`;
  if (process.env.HERALD_REQUIRE_TEAM_TOOLS === '1') throw new Error(`${message}; HERALD_REQUIRE_TEAM_TOOLS is set, so they may not be skipped`);
  return message;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** The README's team section: the `herald serve` lines and the nginx configuration, as printed. */
export function readmeTeamSetup(): { serveLines: string[]; nginx: string } {
  const text = fs.readFileSync(README, 'utf8');
  const start = text.indexOf('## A team\'s gateway');
  if (start < 0) throw new Error('Herald: README.md has no "A team\'s gateway" section');
  const section = text.slice(start, text.indexOf('\n## ', start + 5));
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((match) => ({ language: match[1]!, body: match[2]! }));
  const serveLines = blocks.filter((block) => block.language === 'sh').flatMap((block) => block.body.split('\n')).filter((line) => /^herald serve /.test(line));
  const nginx = blocks.find((block) => block.language === 'nginx')?.body;
  if (serveLines.length < 2 || !nginx) throw new Error('Herald: the README\'s team section must show two `herald serve` lines and an nginx block');
  return { serveLines, nginx };
}

/** A process and what it printed. */
export interface Started {
  readonly child: ChildProcess;
  output(): string;
}

function startProcess(command: string, args: readonly string[], ready: RegExp, options: { env?: NodeJS.ProcessEnv } = {}): Promise<Started> {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Herald test: ${command} did not start: ${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Herald test: ${command} exited (${code}): ${output}`));
    });
  });
}

export async function stopProcess(started: Started | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const child = started?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** redis-server on a free port, persisting to `folder` (append-only, so a restart keeps every entry). */
export async function startRedis(folder: string, port?: number): Promise<{ started: Started; port: number }> {
  const chosen = port ?? (await freePort());
  const started = await startProcess('redis-server', ['--port', String(chosen), '--bind', '127.0.0.1', '--dir', folder, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''], /Ready to accept connections/);
  return { started, port: chosen };
}

/** One replica as the README starts it: its line with the README's ports and Redis URL replaced. */
export async function startReplica(line: string, replace: { port: number; redisUrl: string; upstream: string; token: string }, extra: readonly string[] = [], nodeArgs: readonly string[] = []): Promise<{ started: Started; port: number }> {
  const words = line.replace(/^herald serve /, '').replace(/"\$HERALD_TEAM_TOKEN"/g, replace.token).trim().split(/\s+/);
  const args: string[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (word === '--port') {
      args.push(word, String(replace.port));
      index++;
    } else if (word === '--store') {
      args.push(word, replace.redisUrl);
      index++;
    } else {
      args.push(word);
    }
  }
  const started = await startProcess(process.execPath, [...nodeArgs, path.join(PROJECT_ROOT, 'dist', 'cli.js'), 'serve', ...args, '--openai-base-url', `${replace.upstream}/v1`, '--anthropic-base-url', replace.upstream, ...extra], /Herald gateway on http:\/\/[^:]+:(\d+)/);
  return { started, port: replace.port };
}

/** nginx with the README's configuration, its ports replaced, in a folder of its own. */
export async function startNginx(config: string, ports: { listen: number; replicas: readonly number[] }, folder: string): Promise<Started> {
  const readmePorts = [...config.matchAll(/server 127\.0\.0\.1:(\d+)/g)].map((match) => match[1]!);
  let body = config.replace(/listen \d+;/, `listen 127.0.0.1:${ports.listen};`);
  readmePorts.forEach((port, index) => {
    body = body.replace(`server 127.0.0.1:${port}`, `server 127.0.0.1:${ports.replicas[index]}`);
  });
  // What a distribution's nginx.conf wraps the README's server blocks in, pointed at the test's folder.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  const file = path.join(folder, 'nginx.conf');
  fs.writeFileSync(file, `${user}worker_processes 1;\npid ${folder}/nginx.pid;\nerror_log ${folder}/error.log;\ndaemon off;\nevents { worker_connections 256; }\nhttp {\n  access_log ${folder}/access.log;\n  client_body_temp_path ${folder}/body;\n  proxy_temp_path ${folder}/proxy;\n  fastcgi_temp_path ${folder}/fastcgi;\n  uwsgi_temp_path ${folder}/uwsgi;\n  scgi_temp_path ${folder}/scgi;\n${body}\n}\n`);
  const nginx = fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  const child = spawn(nginx, ['-c', file, '-p', folder, '-e', `${folder}/error.log`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const until = Date.now() + 20_000;
  while (!(await accepts(ports.listen))) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill('SIGKILL');
      const log = fs.existsSync(`${folder}/error.log`) ? fs.readFileSync(`${folder}/error.log`, 'utf8') : '';
      throw new Error(`Herald test: nginx did not start: ${output}${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, output: () => output };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function temporaryFolder(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `herald-${name}-`));
}
