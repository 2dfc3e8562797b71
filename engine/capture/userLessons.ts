/**
 * What a user's words teach beyond stated conventions (statedConventions.ts), found by rules that
 * would rather miss a lesson than take ordinary chatter for one: a rule fires only on a sentence
 * that starts the way a correction or a statement of absence starts, never on a question.
 */

export interface Correction {
  /**
   * What the user said with the rejection, before the instruction: what the agent did wrong, or
   * what is right ("No, you used an env var", "That's wrong: dates are UTC"). Kept as said.
   */
  context?: string;
  /** What to do instead. */
  fix: string;
}

/** The user rejects what the agent did: "No, ...", "That's wrong", "You're wrong", "Not like that". */
const REJECTION =
  /^(?:no(?:pe)?|(?:that|this|it)(?:'s|\u2019s| is)\s+(?:wrong|incorrect|not (?:right|correct|what I (?:asked for|asked|meant|wanted)))|wrong|you(?:'re|\u2019re| are)\s+wrong|not like that)\s*(?:[,.!:;\u2013\u2014-]+|$)\s*/i;
/** An instruction: an imperative verb first, or "... instead", "it should ...". */
const INSTRUCTION =
  /^(?:please\s+)?(?:use|run|call|put|keep|write|add|remove|delete|drop|make|change|set|rename|move|import|return|pass|read|check|revert|undo|leave|stick to|go back to)\b|\binstead\b|^(?:it|this|that|you)\s+(?:should|must|need to)\b/i;
const MAX_SENTENCE = 300;

/** The sentences of a turn, list markers and quote marks at their start removed. */
function sentences(turn: string): string[] {
  return turn
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.trim().replace(/^[-*>#\s]+/, ''))
    .filter((s) => s.length > 0 && s.length <= MAX_SENTENCE && !s.includes('`' + '``'));
}

const isQuestion = (s: string) => s.endsWith('?');

/**
 * A correction of the agent: a turn whose first sentence rejects what the agent did, with an
 * instruction in it or in one of the next two sentences. "No." alone, "No problem", "No, thanks"
 * and a rejection followed only by a question are not corrections.
 */
export function agentCorrection(turn: string): Correction | undefined {
  const [first, ...rest] = sentences(turn);
  if (
    first === undefined ||
    /^no\s+(?:problem|worries|thanks|thank you|rush|need|idea|matter|pressure)\b/i.test(first)
  )
    return undefined;
  const rejected = isQuestion(first) ? null : REJECTION.exec(first);
  if (!rejected) return undefined;
  const remainder = first.slice(rejected[0].length).trim();
  const candidates = [remainder, ...rest.slice(0, 2)];
  const fixAt = candidates.findIndex((s) => s.length >= 6 && !isQuestion(s) && INSTRUCTION.test(s));
  if (fixAt === -1) return undefined;
  const fix = upperFirst(candidates[fixAt] as string);
  const context = fixAt > 0 && remainder.length >= 6 && !isQuestion(remainder) ? remainder : undefined;
  return { fix, ...(context ? { context: upperFirst(context.replace(/[.!;,]+$/, '')) } : {}) };
}

/** The memory text of a correction: the user's words, in order. */
export function correctionText(c: Correction): string {
  return c.context ? `Correction: ${c.context}. ${c.fix}` : `Correction: ${c.fix}`;
}

/** Words after "there is no" that make an idiom, not a statement about the project. */
const IDIOMS =
  'need|way|rush|point|reason|time|problem|hurry|doubt|harm|telling|guarantee|change|difference|longer|such|one|other|more|further|easy|good|right|clear|issue|worries|question|answer|chance|pressure|excuse';
/** A thing named at the start of a sentence: one to four words, not a pronoun or a preposition (a wrapped line's tail). */
const SUBJECT =
  '^(?!(?:on|in|at|to|for|with|and|or|but|that|which|of|from|by|as|so|then|it|this|they|he|she)\\b)(?:the\\s+)?[\\w./@-]+(?:\\s+[\\w./@-]+){0,3}';
const ABSENCE: readonly RegExp[] = [
  // "There is no staging environment." / "There's no config file for this."
  new RegExp(`^there(?:'s|\u2019s| is| are) no (?!(?:${IDIOMS})\\b)[\\w./@-]`, 'i'),
  // "We don't use Redux." / "This project no longer ships a CLI."
  /^(?:we|this (?:project|repo|repository|codebase)|the (?:project|repo|repository|codebase))\s+(?:don't|do not|no longer|never)\s+(?:use|have|support|ship|run|deploy|need)\b/i,
  // "The v1 API was removed." / "legacy/ has been deleted"
  new RegExp(
    `${SUBJECT}\\s+(?:was|were|has been|have been|got)\\s+(?:removed|deleted|dropped|retired)\\b`,
    'i',
  ),
  // "config.yml no longer exists." / "The old router is gone."
  new RegExp(
    `${SUBJECT}\\s+(?:no longer exists?|does(?: not|n't) exist(?: anymore)?|is gone|is no longer (?:used|supported|maintained))\\b`,
    'i',
  ),
  // "We have no staging server."
  /^(?:we|this project|the project)\s+(?:has|have)\s+no\s+[\w./@-]/i,
];
/** A sentence that is a condition, a wish or a guess, not a statement. */
const HEDGED = /^(?:if|when|unless|maybe|perhaps|i think|i guess|what if|in case|once|until)\b/i;

/** The statements of absence in a turn: "there is no X", "we don't use X", "X was removed". */
export function negativeKnowledge(turn: string): string[] {
  return sentences(turn).filter(
    (s) => s.length >= 12 && !isQuestion(s) && !HEDGED.test(s) && ABSENCE.some((re) => re.test(s)),
  );
}

function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
