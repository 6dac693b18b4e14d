/**
 * The held-out tasks: reported next to the tuning half (tasks.ts) and never tuned on. Whoever
 * tunes Herald against the live bench reads the tuning half's figures only.
 */
import type { Step, TaskScript } from './agentScript';
import { MODULES } from './workspace';

const read = (path: string): Step => ({ kind: 'read', path });
const shell = (command: string): Step => ({ kind: 'shell', command });
const grep = (pattern: string, path: string): Step => ({ kind: 'grep', pattern, path });
const list = (path: string): Step => ({ kind: 'list', path });

function auditSteps(): Step[] {
  const steps: Step[] = [shell('ls -laR src'), grep('TODO', 'src')];
  MODULES.forEach((name, index) => {
    steps.push(grep('TODO', `src/inventory/${name}.py`));
    if (index % 2 === 0) steps.push(read(`src/inventory/${name}.py`));
    if (index === 5) steps.push(shell('cat logs/server.log'), shell('cat logs/build.log'));
  });
  steps.push(read('src/inventory/catalog.py'), read('README.md'), shell('seq 1 5000'), grep('deprecated', 'src'), read('src/inventory/stock.py'), shell('grep -rc TODO src | sort'), read('src/inventory/auth.py'), shell('grep -rn TODO src | wc -l'));
  return steps;
}

function incidentSteps(): Step[] {
  const steps: Step[] = [read('README.md'), shell('tail -n 200 logs/server.log'), shell('cat logs/server.log')];
  for (let worker = 0; worker < 8; worker++) steps.push(shell(`grep -c 'worker-${worker}] sync failed' logs/server.log`));
  steps.push(read('src/inventory/sync.py'), read('src/inventory/scheduler.py'), grep('timeout', 'src/inventory'), read('config/settings.json'));
  steps.push(shell('grep WARN logs/server.log'), shell('cat logs/server.log'), read('src/inventory/sync.py'), read('src/inventory/cache.py'), grep('retries', 'src'));
  steps.push(shell("grep ERROR logs/server.log | cut -c1-13 | uniq -c"), read('src/inventory/suppliers.py'), shell('seq 1 1500'), read('src/inventory/scheduler.py'), grep('log.error', 'src/inventory'));
  steps.push(shell('head -n 100 logs/server.log'), read('src/inventory/sync.py'), grep('worker', 'logs/server.log'), read('Makefile'), shell("grep -c 'status=200' logs/server.log"));
  return steps;
}

export const HELD_OUT_TASKS: readonly TaskScript[] = [
  {
    id: 'held-short-sync',
    set: 'held-out',
    length: 'short',
    prompt: '[task:held-short-sync] How long does the sync wait before it gives up, and is that the configured value?',
    steps: [list('src/inventory'), read('README.md'), shell('cat logs/server.log'), grep('timeout', 'src'), read('config/settings.json'), shell('wc -l logs/server.log')],
    answer: 'The sync waits 30 s per attempt, as configured.',
  },
  {
    id: 'held-short-build',
    set: 'held-out',
    length: 'short',
    prompt: '[task:held-short-build] Summarise the build warnings and check the catalog module they mention.',
    steps: [shell('cat logs/build.log'), grep('DeprecationWarning', 'logs/build.log'), read('src/inventory/catalog.py'), read('Makefile'), read('src/inventory/catalog.py'), shell('seq 1 4000'), shell('tail -n 1 logs/build.log')],
    answer: 'The build passes with deprecation warnings only.',
  },
  {
    id: 'held-long-audit',
    set: 'held-out',
    length: 'long',
    prompt: '[task:held-long-audit] Audit the TODOs across the codebase and group them by module.',
    steps: auditSteps(),
    answer: 'TODOs audited and grouped by module.',
  },
  {
    id: 'held-long-incident',
    set: 'held-out',
    length: 'long',
    prompt: '[task:held-long-incident] Write an incident summary for the sync failures on 1 March: which workers, how often, and what the code does on a timeout.',
    steps: incidentSteps(),
    answer: 'Incident summary written: sync timeouts across workers, retried three times.',
  },
];
