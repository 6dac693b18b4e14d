/**
 * Held-out library tasks (issue 29): tasks the library's ranking was not written against, on two
 * libraries. `tallyway` is the test library (test/fixtures/library), with tasks written for this
 * set, most of them in other words than the page they need ("double-invoiced" for a page that
 * says "charged twice"), and tasks it does not cover at all. `fernhill` is a second library
 * written for this set (test/fixtures/library-held-out: a project-planning app's support
 * handbook) with tasks of the same two kinds. The issue's own 18 tasks are not in the
 * repository; these replace them (its three failing tasks are here, word for word).
 *
 * Every task falls in a tune half or a measure half by the FNV-1a hash of its id (the rule of
 * test/support/workloads/heldOutSplit.ts): thresholds are chosen on the tune half, the measure
 * half is only reported.
 */
import * as path from 'node:path';
import { heldOutHalf, type HeldOutHalf } from '../../support/workloads/heldOutSplit';

export type HeldOutLibrary = 'tallyway' | 'fernhill';

export interface HeldOutLibraryTask {
  readonly id: string;
  readonly library: HeldOutLibrary;
  readonly task: string;
  /** Pages the bundle must hold; empty for a task the library does not cover (nothing found expected). */
  readonly wanted: readonly string[];
  /** Pages the bundle must not hold (unrelated to the task). */
  readonly unwanted: readonly string[];
}

export const HELD_OUT_LIBRARY_DIRS: Readonly<Record<HeldOutLibrary, string>> = {
  tallyway: path.resolve(__dirname, '..', '..', 'fixtures', 'library'),
  fernhill: path.resolve(__dirname, '..', '..', 'fixtures', 'library-held-out'),
};

const CARDS = ['battlecards/levyline', 'battlecards/taxwell', 'battlecards/brightledger', 'battlecards/quillo'];
const TEMPLATES = ['templates/cold-email', 'templates/follow-up-email', 'templates/comparison-page', 'templates/call-script'];
const PERSONAS = ['personas/cfo', 'personas/controller', 'personas/ecommerce-ops', 'personas/it-lead'];

/** Every page of the Fernhill library but its rule: what an uncovered task must not bring. */
const FERNHILL_PAGES = ['billing/proration', 'billing/failed-payments', 'billing/invoices', 'accounts/data-export', 'accounts/closing-a-workspace', 'accounts/single-sign-on', 'product/chat-notifications', 'product/mobile-app', 'product/plan-limits', 'processes/bug-escalation', 'processes/outage-updates', 'security/vulnerability-reports'];
/** Every searchable Tallyway page that is not a rule or pinned: what an uncovered task must not bring. */
const TALLYWAY_PAGES = [...CARDS, ...TEMPLATES, ...PERSONAS, 'customers/northwind-case-study', 'customers/references', 'markets/dtc-retail', 'markets/logistics', 'markets/saas', 'objections/not-now', 'objections/too-expensive', 'pricing/add-ons', 'pricing/discount-guidelines', 'pricing/plans-and-prices', 'pricing/regional-pricing', 'processes/discount-approval', 'processes/onboarding-handoff', 'processes/security-questionnaire', 'processes/trial-setup', 'products/exemptions', 'products/nexus-monitor', 'products/returns', 'promotions/2027-partner-promo', 'reference/filing-faq', 'reference/implementation-timeline', 'reference/integrations', 'reference/refund-policy', 'reference/security-facts', 'reference/support-sla', 'voice/email-style', 'voice/formatting', 'voice/words-we-avoid'];

/** Fernhill pages outside the wanted page's own folder. */
function otherFernhill(...wanted: string[]): string[] {
  const folders = new Set(wanted.map((id) => id.split('/')[0]));
  return FERNHILL_PAGES.filter((id) => !folders.has(id.split('/')[0]));
}

const covered = (id: string, library: HeldOutLibrary, task: string, wanted: string[], unwanted: string[]): HeldOutLibraryTask => ({ id, library, task, wanted, unwanted });
const uncovered = (id: string, library: HeldOutLibrary, task: string): HeldOutLibraryTask => ({ id, library, task, wanted: [], unwanted: library === 'tallyway' ? TALLYWAY_PAGES : FERNHILL_PAGES });

export const HELD_OUT_LIBRARY_TASKS: readonly HeldOutLibraryTask[] = [
  covered('tally-double-invoiced', 'tallyway', 'the shipper got double-invoiced for November', ['reference/refund-policy'], [...CARDS, ...TEMPLATES]),
  covered('tally-downgrade-money-back', 'tallyway', 'a customer downgraded from Enterprise to Growth, can they get money back for the rest of the year?', ['reference/refund-policy'], [...CARDS, ...TEMPLATES]),
  covered('tally-api-calls', 'tallyway', "how many API calls per second can a client's developers make", ['reference/integrations'], [...CARDS, ...TEMPLATES]),
  covered('tally-late-fine', 'tallyway', 'who pays the fine if a state return goes in late because of us', ['reference/filing-faq'], [...CARDS, ...TEMPLATES]),
  covered('tally-ticket-speed', 'tallyway', 'how quickly do we answer a ticket from a customer on the Growth plan', ['reference/support-sla'], [...CARDS, ...TEMPLATES]),
  covered('tally-data-europe', 'tallyway', 'is customer data kept in Europe', ['reference/security-facts'], [...CARDS, ...TEMPLATES]),
  covered('tally-try-before-buying', 'tallyway', 'can a prospect try the product before buying, and for how long', ['processes/trial-setup'], [...CARDS]),
  covered('tally-twelve-percent', 'tallyway', 'a rep wants to give 12% off on a two-year deal; who has to sign off', ['processes/discount-approval', 'pricing/discount-guidelines'], [...CARDS, ...TEMPLATES]),
  covered('tally-resale-paperwork', 'tallyway', 'a wholesaler keeps losing the resale paperwork from its buyers', ['products/exemptions'], [...CARDS, ...TEMPLATES]),
  covered('tally-new-states', 'tallyway', "a customer's online sales grew and they may now owe tax in new states", ['products/nexus-monitor'], [...CARDS, ...TEMPLATES]),
  covered('tally-pounds', 'tallyway', 'what does the Growth plan cost in pounds', ['pricing/regional-pricing'], [...CARDS, ...TEMPLATES]),
  covered('tally-back-out', 'tallyway', 'a new customer wants to back out three weeks after signing; do they get their money back', ['reference/refund-policy'], [...CARDS, ...TEMPLATES]),
  covered('tally-bad-timing', 'tallyway', 'reply to a buyer who says the timing is bad and to call back next year', ['objections/not-now'], [...CARDS]),
  covered('tally-accounting-firm', 'tallyway', 'an accounting firm wants to send us clients; what is in it for them', ['promotions/2027-partner-promo'], [...CARDS, ...TEMPLATES]),
  covered('tally-checkout-slow', 'tallyway', 'does the checkout slow down while our tax calculation runs', ['personas/ecommerce-ops'], [...CARDS, ...TEMPLATES]),
  uncovered('tally-haiku', 'tallyway', 'write a haiku about volcanoes'),
  uncovered('tally-offsite', 'tallyway', 'plan a team offsite in Lisbon for twelve people'),
  uncovered('tally-flaky-test', 'tallyway', 'fix the flaky integration test in the payments service'),
  uncovered('tally-banana-bread', 'tallyway', 'what is a good recipe for banana bread'),
  uncovered('tally-hamlet', 'tallyway', 'summarize the plot of Hamlet in three sentences'),
  uncovered('tally-kubernetes', 'tallyway', 'set up a Kubernetes cluster with autoscaling'),
  uncovered('tally-wedding-toast', 'tallyway', "draft a toast for my sister's wedding"),
  covered('fern-card-bouncing', 'fernhill', "a client's card keeps bouncing, when do we lock them out", ['billing/failed-payments'], otherFernhill('billing/failed-payments', 'accounts/closing-a-workspace')),
  covered('fern-cheaper-tier', 'fernhill', 'a customer switched to a cheaper tier halfway through the month, what do they owe', ['billing/proration'], otherFernhill('billing/proration')),
  covered('fern-vat-id', 'fernhill', "the company's VAT ID is missing from last month's bill, can we fix it", ['billing/invoices'], otherFernhill('billing/invoices')),
  covered('fern-copy-of-information', 'fernhill', 'someone wants a copy of all the information we hold about them', ['accounts/data-export'], otherFernhill('accounts/data-export')),
  covered('fern-erase-workspace', 'fernhill', 'the owner wants us to erase their whole workspace for good', ['accounts/closing-a-workspace'], otherFernhill('accounts/closing-a-workspace')),
  covered('fern-okta', 'fernhill', 'how do I hook up Okta single sign-on', ['accounts/single-sign-on'], otherFernhill('accounts/single-sign-on')),
  covered('fern-flight-edits', 'fernhill', 'changes made on the phone during a flight disappeared', ['product/mobile-app'], otherFernhill('product/mobile-app')),
  covered('fern-outside-collaborators', 'fernhill', 'how many outside collaborators can a Team plan invite', ['product/plan-limits'], otherFernhill('product/plan-limits')),
  covered('fern-tasks-vanish', 'fernhill', "a customer's tasks vanish when they reorder them; how do I get the developers to look at it", ['processes/bug-escalation'], otherFernhill('processes/bug-escalation')),
  covered('fern-site-down', 'fernhill', 'the site is down, what do we tell customers', ['processes/outage-updates'], otherFernhill('processes/outage-updates')),
  covered('fern-login-hole', 'fernhill', 'someone says they found a hole in our login page and wants a reward', ['security/vulnerability-reports'], otherFernhill('security/vulnerability-reports')),
  covered('fern-slack-channel', 'fernhill', 'project updates stopped showing up in our Slack channel', ['product/chat-notifications'], otherFernhill('product/chat-notifications')),
  uncovered('fern-limerick', 'fernhill', 'write a limerick about penguins'),
  uncovered('fern-capital', 'fernhill', 'what is the capital of Australia'),
  uncovered('fern-flights', 'fernhill', 'book flights and a hotel for the sales conference in Denver'),
  uncovered('fern-laptop', 'fernhill', 'recommend a laptop for video editing'),
  uncovered('fern-interview', 'fernhill', 'help me get ready for a job interview at a bank'),
  uncovered('fern-translate', 'fernhill', 'translate this paragraph into German'),
];

/** The tasks of one half. */
export function heldOutLibraryTasks(half: HeldOutHalf): HeldOutLibraryTask[] {
  return HELD_OUT_LIBRARY_TASKS.filter((entry) => heldOutHalf(entry.id) === half);
}
