/**
 * Which prose sentences state a conclusion: a finding ("the bug is…", "this confirms…"), an
 * outcome (an error, a failing or passing test) or a decision and plan change ("instead I
 * will…", "the fix is…"). Exploratory sentences (questions, "Wait,", "Maybe") are not
 * conclusions even when they use those words, since they weigh options rather than settle one.
 */

/** Findings, outcomes and decisions, in the words agents use for them. */
const CONCLUSION_CUES: readonly RegExp[] = [
  // Findings about the cause.
  /\b(?:the|a|this|that) (?:root cause|cause|culprit|bug|issue|problem|regression|reason)\b[^.?!]{0,40}\b(?:is|was|lies|comes|happens|occurs|seems|appears)\b/i,
  /\b(?:confirm(?:s|ed)?|verified|reproduc(?:es|ed)|turns out|I found|found (?:the|that|it)|this (?:means|explains|shows|proves)|that (?:means|explains)|which (?:means|explains|causes))\b/i,
  /\b(?:therefore|thus|hence|consequently|in conclusion|in summary|to summarize)\b/i,
  // Outcomes: errors and tests.
  /\b(?:error|exception|traceback|segfault|crash(?:es|ed)?|warning|failure)s?\b/i,
  /\b[A-Z]\w*(?:Error|Exception|Warning)\b/,
  /\b(?:fails?|failed|failing|passe[sd]|passing|succeed(?:s|ed)|works|worked|is (?:now )?(?:fixed|resolved|correct|working))\b/i,
  // Decisions and plan changes.
  /\b(?:instead|decided|the (?:fix|solution|plan|approach|change) (?:is|will|should)|my (?:fix|plan|approach)|I (?:will|'ll|am going to) (?:now )?(?:fix|modify|change|edit|patch|update|replace|remove|add|implement|apply|revert|submit))\b/i,
  /\bI(?: have|'ve)? (?:changed|modified|updated|fixed|patched|added|removed|deleted|replaced|edited|implemented|reverted|created|wrote|moved|renamed|refactored|applied)\b/i,
  /\b(?:done|complete[sd]?|finished|all set)\b/i,
];

/** Openings of sentences that weigh options rather than settle one. */
const EXPLORATORY_OPENING = /^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)?(?:wait|hmm+|maybe|perhaps|actually|but (?:what|wait|maybe|if|why|how)|what if|or maybe|let me think|i wonder|is it|does it|could it|should i|why|how about|alternatively|if|unless|suppose|assuming|or)\b/i;

/** True when the sentence states a finding, an outcome or a decision. */
export function isConclusion(sentence: string): boolean {
  const trimmed = sentence.trim();
  if (trimmed.endsWith('?') || EXPLORATORY_OPENING.test(trimmed)) return false;
  return CONCLUSION_CUES.some((cue) => cue.test(trimmed));
}
