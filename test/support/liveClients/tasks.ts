/**
 * The tasks tuned on: two short (under 10 requests) and two long (30 or more). The held-out
 * half is in heldOutTasks.ts: reported with these, never tuned on.
 */
import type { Step, TaskScript } from './agentScript';
import { MODULES } from './workspace';

const read = (path: string): Step => ({ kind: 'read', path });
const shell = (command: string): Step => ({ kind: 'shell', command });
const grep = (pattern: string, path: string): Step => ({ kind: 'grep', pattern, path });
const list = (path: string): Step => ({ kind: 'list', path });

function reviewSteps(): Step[] {
  const steps: Step[] = [list('src/inventory')];
  MODULES.forEach((name, index) => {
    steps.push(read(`src/inventory/${name}.py`), grep('def ', `src/inventory/${name}.py`));
    if (index === 3) steps.push(shell('cat logs/build.log'));
    if (index === 6) steps.push(shell('seq 1 3000'));
    if (index === 9) steps.push(read('src/inventory/pricing.py'));
  });
  steps.push(shell('cat logs/server.log'), read('src/inventory/sync.py'), shell('wc -l src/inventory/*.py | tail -n 1'));
  return steps;
}

function ordersSteps(): Step[] {
  const steps: Step[] = [list('data'), shell('head -n 20 data/orders.csv'), shell('cat data/orders.csv'), read('src/inventory/orders.py')];
  for (const region of ['eu-west', 'eu-north', 'us-east', 'us-west', 'ap-south']) steps.push(shell(`grep -c ',${region},' data/orders.csv`), shell(`grep ',${region},' data/orders.csv | grep -c returned`));
  steps.push(shell("cut -d, -f6 data/orders.csv | sort | uniq -c"), read('src/inventory/returns.py'), read('src/inventory/shipping.py'), grep('returned', 'src'));
  steps.push(shell('cat logs/server.log'), grep('order', 'src/inventory/orders.py'), read('src/inventory/orders.py'), shell("awk -F, 'NR>1 {s+=$4*$5} END {print s}' data/orders.csv"));
  steps.push(shell('sort -t, -k5 -n -r data/orders.csv | head -n 50'), read('config/settings.json'), shell('seq 1 2000'), read('src/inventory/returns.py'), grep('status', 'src/inventory'));
  steps.push(read('src/inventory/shipping.py'), shell('tail -n 30 data/orders.csv'), shell("awk -F, 'NR>1 && $6==\"cancelled\"' data/orders.csv | wc -l"));
  return steps;
}

export const TUNING_TASKS: readonly TaskScript[] = [
  {
    id: 'tune-short-config',
    set: 'tuning',
    length: 'short',
    prompt: '[task:tune-short-config] Does the pricing configuration still use the deprecated discount table, and where does the code depend on it?',
    steps: [list('.'), read('config/settings.json'), shell('cat logs/build.log'), grep('deprecated', 'src'), read('src/inventory/pricing.py'), shell('grep -c DeprecationWarning logs/build.log')],
    answer: 'The deprecated discount table is still enabled; pricing reads it.',
  },
  {
    id: 'tune-short-errors',
    set: 'tuning',
    length: 'short',
    prompt: '[task:tune-short-errors] The nightly sync logged errors. Find what fails and where the sync code handles it.',
    steps: [shell('ls -la logs'), shell('cat logs/server.log'), grep('ERROR', 'logs/server.log'), read('src/inventory/sync.py'), shell('seq 1 2500'), read('src/inventory/sync.py'), shell('grep -c ERROR logs/server.log')],
    answer: 'The sync fails on upstream timeouts after three attempts.',
  },
  {
    id: 'tune-long-review',
    set: 'tuning',
    length: 'long',
    prompt: '[task:tune-long-review] Review every module of the inventory service and list its functions.',
    steps: reviewSteps(),
    answer: 'Every module reviewed; functions listed.',
  },
  {
    id: 'tune-long-orders',
    set: 'tuning',
    length: 'long',
    prompt: '[task:tune-long-orders] Work out how orders, returns and cancellations split by region, and which code handles each status.',
    steps: ordersSteps(),
    answer: 'Orders split by region worked out; statuses traced to their modules.',
  },
];
