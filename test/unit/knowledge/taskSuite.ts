/**
 * Tasks on the test library with the pages each should and should not bring: used by the
 * get_context tests and by the knowledge benchmark's quality figures.
 */
export interface LibraryTask {
  readonly task: string;
  /** Pages the bundle must hold (rules and pinned pages aside). */
  readonly wanted: readonly string[];
  /** Pages the bundle must not hold. */
  readonly unwanted: readonly string[];
}

const OTHER_CARDS = (keep: string): string[] => ['battlecards/levyline', 'battlecards/taxwell', 'battlecards/brightledger', 'battlecards/quillo'].filter((id) => id !== keep);
const NEVER = ['drafts/levyline-pricing-update', 'promotions/q3-2025-promo', 'notes/dana-call-notes', 'notes/sam-integration-notes'];

export const LIBRARY_TASKS: readonly LibraryTask[] = [
  { task: 'cold email to a CFO at a 200-person logistics company evaluating Levyline', wanted: ['voice/email-style', 'templates/cold-email', 'personas/cfo', 'markets/logistics', 'battlecards/levyline'], unwanted: [...OTHER_CARDS('battlecards/levyline'), 'templates/comparison-page', 'templates/follow-up-email', ...NEVER] },
  { task: 'what is the refund window?', wanted: ['reference/refund-policy'], unwanted: ['pricing/plans-and-prices', 'battlecards/levyline', ...NEVER] },
  { task: 'write a comparison page against Taxwell', wanted: ['templates/comparison-page', 'battlecards/taxwell'], unwanted: [...OTHER_CARDS('battlecards/taxwell'), 'templates/cold-email', ...NEVER] },
  { task: 'our client was charged twice, what do we do', wanted: ['reference/refund-policy'], unwanted: ['battlecards/levyline', ...NEVER] },
  { task: 'what is the Growth platform fee in the United Kingdom', wanted: ['pricing/regional-pricing'], unwanted: ['battlecards/quillo', ...NEVER] },
  { task: 'answer a pricing objection from a prospect who says we are too expensive', wanted: ['objections/too-expensive', 'pricing/plans-and-prices'], unwanted: ['processes/security-questionnaire', ...NEVER] },
  { task: 'prepare for a discovery call with a controller', wanted: ['templates/call-script', 'personas/controller'], unwanted: ['personas/cfo', 'templates/cold-email', ...NEVER] },
  { task: 'does Tallyway integrate with NetSuite and what is the API rate limit', wanted: ['reference/integrations'], unwanted: [...NEVER] },
  { task: 'the prospect wants SAML SSO and our SOC 2 report', wanted: ['reference/security-facts'], unwanted: ['battlecards/taxwell', ...NEVER] },
  { task: 'follow-up email to a Head of E-commerce who did not reply', wanted: ['templates/follow-up-email', 'personas/ecommerce-ops'], unwanted: ['templates/cold-email', 'personas/cfo', ...NEVER] },
  { task: 'a SaaS company on Stripe Billing is comparing us with Quillo', wanted: ['battlecards/quillo', 'markets/saas'], unwanted: [...OTHER_CARDS('battlecards/quillo'), ...NEVER] },
  { task: 'how long does onboarding take after signature', wanted: ['reference/implementation-timeline'], unwanted: [...NEVER] },
];
