/**
 * Log workloads from loghub (../shared/data/logs): each a real 2,000-line log, pasted under a
 * question or returned by a command, with facts taken from loghub's structured files (every
 * line's level, event id and template).
 */
import type { Workload } from './types';
import { fencedUnder, freshToolResult, pastedUnder, readShared, structuredLog, templateConstant, topCounts } from './shape';

function logText(system: string): string {
  return readShared('logs', system, `${system}_2k.log`);
}

/** Distinct template constants of the rows a predicate selects, in order of first appearance. */
function templatesOf(rows: readonly Record<string, string>[], select: (row: Record<string, string>) => boolean): string[] {
  const seen = new Set<string>();
  for (const row of rows) if (select(row)) seen.add(templateConstant(row.EventTemplate ?? ''));
  return [...seen].filter((fact) => fact.length >= 8);
}

function apacheErrors(): Workload {
  const question = 'Our web server log is below. Which errors does it report, and how often?';
  return {
    id: 'apache-error-log',
    category: 'logs and data',
    pattern: 'web-server log pasted under a question',
    question,
    body: pastedUnder(question, logText('Apache')),
    facts: templatesOf(structuredLog('Apache'), (row) => row.Level === 'error'),
    source: 'loghub Apache_2k.log pasted without a fence; facts: the constant text of every template logged at level error (structured CSV)',
  };
}

function opensshFailures(): Workload {
  const question = 'Which IP addresses have the most failed password attempts on this server?';
  const rows = structuredLog('OpenSSH');
  const failed = rows.filter((row) => row.EventId === 'E9' || row.EventId === 'E10').map((row) => / from (\S+) port /.exec(row.Content ?? '')?.[1] ?? '');
  return {
    id: 'openssh-failed-passwords',
    category: 'logs and data',
    pattern: 'auth log returned by a command',
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command: 'cat /var/log/auth.log' } }, logText('OpenSSH')),
    facts: topCounts(failed.filter(Boolean), 3),
    source: 'loghub OpenSSH_2k.log as the result of `cat /var/log/auth.log`; facts: the three source addresses with the most "Failed password" events (E9, E10)',
  };
}

function hpcExhaustion(): Workload {
  const question = 'Did any part of the cluster run into resource exhaustion? Which ones?';
  const rows = structuredLog('HPC');
  return {
    id: 'hpc-resource-exhaustion',
    category: 'logs and data',
    pattern: 'log whose question uses other words than the log',
    question,
    body: fencedUnder(question, logText('HPC').replace(/\n$/, '')),
    facts: [...new Set(rows.filter((row) => row.EventId === 'E40').map((row) => row.Content ?? ''))].map((content) => / domain (\S+) is full/.exec(content)?.[1] ?? content),
    source: 'loghub HPC_2k.log in a fenced block; the question says "resource exhaustion", the log says "ServerFileSystem domain … is full"; facts: every full domain (E40)',
  };
}

function hadoopLatency(): Workload {
  const question = 'Why did latency spike around 18:05 on 2015-10-18? What went wrong?';
  const rows = structuredLog('Hadoop');
  const window = (row: Record<string, string>): boolean => (row.Time ?? '') >= '18:05:50' && (row.Time ?? '') <= '18:06:10' && (row.Level === 'WARN' || row.Level === 'ERROR');
  return {
    id: 'hadoop-latency-spike',
    category: 'logs and data',
    pattern: 'incident log and "why did latency spike at …?"',
    question,
    body: pastedUnder(question, logText('Hadoop')),
    facts: templatesOf(rows, window),
    source: 'loghub Hadoop_2k.log pasted; facts: the constant text of every WARN/ERROR template logged between 18:05:50 and 18:06:10 (slow read, lease renewal, RM contact errors)',
  };
}

function zookeeperQuorum(): Workload {
  const question = 'Why do the ZooKeeper quorum peers keep dropping their connections?';
  const rows = structuredLog('Zookeeper');
  const errors = templatesOf(rows, (row) => row.Level === 'ERROR');
  const warnings = topCounts(rows.filter((row) => row.Level === 'WARN').map((row) => templateConstant(row.EventTemplate ?? '')), 3);
  return {
    id: 'zookeeper-quorum',
    category: 'logs and data',
    pattern: 'service log returned by a command',
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command: 'kubectl logs zookeeper-0 --tail=2000' } }, logText('Zookeeper')),
    facts: [...new Set([...errors, ...warnings])],
    source: 'loghub Zookeeper_2k.log as the result of `kubectl logs`; facts: every ERROR template and the three most frequent WARN templates',
  };
}

function linuxAuth(): Workload {
  const question = 'Which remote hosts tried to log in and failed authentication?';
  const rows = structuredLog('Linux');
  const hosts = rows.filter((row) => /authentication failure/.test(row.Content ?? '')).map((row) => /rhost=(\S+)/.exec(row.Content ?? '')?.[1] ?? '');
  return {
    id: 'linux-auth-failures',
    category: 'logs and data',
    pattern: 'syslog pasted under a question',
    question,
    body: pastedUnder(question, logText('Linux')),
    facts: topCounts(hosts.filter(Boolean), 3),
    source: 'loghub Linux_2k.log pasted; facts: the three remote hosts with the most "authentication failure" events',
  };
}

function androidErrors(): Workload {
  const question = 'What errors did the device log during this session?';
  const rows = structuredLog('Android');
  return {
    id: 'android-logcat-errors',
    category: 'logs and data',
    pattern: 'device log returned by a command',
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command: 'adb logcat -d' } }, logText('Android')),
    facts: [...new Set(rows.filter((row) => row.Level === 'E').map((row) => (row.Content ?? '').trim()))],
    source: 'loghub Android_2k.log as the result of `adb logcat -d`; facts: the message of every line at level E',
  };
}

function proxifierFailures(): Workload {
  const question = 'Which programs failed to connect through the proxy, and what error did they get?';
  const rows = structuredLog('Proxifier').filter((row) => / error : /.test(row.Content ?? ''));
  const programs = topCounts(rows.map((row) => row.Program ?? ''), 3);
  const errors = topCounts(rows.map((row) => templateConstant((row.EventTemplate ?? '').replace(/^.* error : /, ''))), 2);
  return {
    id: 'proxifier-errors',
    category: 'logs and data',
    pattern: 'proxy log pasted under a question',
    question,
    body: pastedUnder(question, logText('Proxifier')),
    facts: [...programs, ...errors],
    source: 'loghub Proxifier_2k.log pasted; facts: the three programs with the most connection errors and the two commonest error messages',
  };
}

export function logWorkloads(): Workload[] {
  return [apacheErrors(), opensshFailures(), hpcExhaustion(), hadoopLatency(), zookeeperQuorum(), linuxAuth(), androidErrors(), proxifierFailures()];
}
