/**
 * The confirmation classifier: what a customer's reply to an agent's request means (yes / no /
 * unclear), and what kind of request an agent message makes (a confirmation request, a closing
 * offer such as "Anything else?", or something else). Pure and deterministic: rules over general
 * cues of English support conversations, not over particular sentences.
 *
 * The policies (airline 1.2, retail 1.2: "list the action details and obtain explicit
 * confirmation") need an *explicit* yes, so a reply is `yes` only when it affirms without a
 * negation, hedge, condition, partial consent or open question attached:
 *
 * - negation turns an affirmative into a refusal: "not okay", "don't go ahead", "absolutely not";
 *   a leading "no" wins over weak agreement words ("No, that's fine" declines), but not over a
 *   directive ("No, it's fine, go ahead" agrees); idioms are read as wholes ("no problem",
 *   "why not", "yeah, no", "yeah right");
 * - hedges ("maybe", "I guess", "I think so", "not sure") and deferrals ("hold on", "let me check")
 *   make a reply unclear;
 * - conditions ("if", "as long as", "unless") and partial consent ("but", "except", "only",
 *   "instead", "don't charge the card") make a yes unclear ("yes but not the card");
 * - a question back leaves the reply unclear unless a yes stands outside the question
 *   ("Yes, go ahead. How long will the refund take?" is a yes);
 * - a self-correction ("actually", "on second thought", "wait, no", "scratch that") means the part
 *   after the last correction decides.
 *
 * Used by the `confirmation_before_write` check (src/evaluation/checks/confirmation.ts) and the
 * user simulator's confirm-then-stop guard (src/users/confirm-guard.ts).
 */

/** How a reply answers the agent's request. */
export type ReplyLabel = 'yes' | 'no' | 'unclear';

/** A classified reply: the label and the cues that decided it (for evidence). */
export interface ReplyClassification {
  label: ReplyLabel;
  /** e.g. `affirm:go ahead`, `negation:not okay`, `hedge:maybe`, `condition:if`, `partial:but`, `question`. */
  cues: string[];
}

/** What an agent message asks of the customer. */
export type RequestKind = 'confirmation' | 'closing_offer' | 'other';

// ---- normalisation -------------------------------------------------------------------------

/** Common misspellings and chat forms → canonical words (whole words only). */
const SPELLING: [RegExp, string][] = [
  [/\b(yes+|yse|yess+|yea+h*|yeh|ya+|yah|yas+|yep+|yup+|ye|y)\b/g, 'yes'],
  [/\b(ok+|okey|oky|okie( dokie)?|okey dokey|k+|kk+|o\.k\.?)\b/g, 'okay'],
  [/\b(al+right(y)?|aight)\b/g, 'alright'],
  [/\b(nope+|nah+|naw|nay|n|noo+)\b/g, 'no'],
  [/\b(pls|plz|plse|pleas|plez)\b/g, 'please'],
  [/\b(procede|proceeed|procced|porceed)\b/g, 'proceed'],
  [/\b(confrim|comfirm|confim|cofirm)\b/g, 'confirm'],
  [/\b(definately|definitly|defo)\b/g, 'definitely'],
  [/\b(dont|do'nt)\b/g, "don't"],
  [/\b(doesnt)\b/g, "doesn't"],
  [/\b(cant)\b/g, "can't"],
  [/\b(wont)\b/g, "won't"],
  [/\b(isnt)\b/g, "isn't"],
  [/\b(thats)\b/g, "that's"],
  [/\b(its)\b(?= (fine|ok|okay|alright|good|correct|right|wrong|not))/g, "it's"],
  [/\b(im)\b/g, "i'm"],
  [/\b(thx|thanx|ty|tysm)\b/g, 'thanks'],
  [/\b(idk|dunno)\b/g, "i don't know"],
];

/** Lower case, straight quotes, signal tokens (`###STOP###`) removed, spelling normalised. */
export function normalizeReply(text: string): string {
  let t = text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/#{3}[a-z_-]+#{3}/g, ' ')
    .replace(/[\u2013\u2014]/g, ' - ');
  for (const [re, to] of SPELLING) t = t.replace(re, to);
  return t.replace(/\s+/g, ' ').trim();
}

// ---- cue lexicon ---------------------------------------------------------------------------

/** Idioms read as a whole before word cues (their words would mislead). */
const AGREE_IDIOMS = /\b(no problem|no problems|no worries|not a problem|no objections?|no issues?|no reason not to|why not|i don't see why not|i don't mind|don't mind|do not mind|no doubt|nothing wrong with (that|it)|couldn't agree more|can't argue with that)\b/g;
const REFUSE_IDIOMS = /\b(please (don't|do not)|i don't think so|don't think so|not really|absolutely not|definitely not|certainly not|of course not|not at all|no way|hell no|no chance|not a chance|thanks but no|no thanks|no thank you|i'd rather not|i would rather not|rather not|i'd prefer not|i would prefer not|prefer not to|i changed my mind|changed my mind|never mind|nevermind|forget it|forget about it|scratch that|cancel that|i refuse|i decline|i don't agree|i disagree|not what i (asked|wanted|want|said)|that's wrong|that is wrong|that's incorrect|that is incorrect|not right|not correct|not okay|not fine|not good|not acceptable|unacceptable)\b/g;
const SARCASM = /(^|[.!?] )oh,? (great|sure|wonderful|perfect|fantastic|lovely|brilliant)[,!.]* (another|more|just what|exactly what|now|so now|that's just|charge me|why don't you)\b|\b(yes right|sure you (will|do|are|can)|as if|what a joke|thanks for nothing|are you (kidding|joking|serious)|you('re| are|'ve got to| must) be (kidding|joking)|great, just great)\b/;

/** Clear agreement and directives to go on. */
const STRONG_AFFIRM = /\b(yes|sure|absolutely|definitely|certainly|of course|confirm(ed|s)?|i confirm|go ahead|go for it|proceed|please do|please go ahead|do it|do that|do so|let's do (it|that|this)|book it|make the change|process it|approved?|i approve|agreed|i agree|affirmative|i accept|accepted|deal|you have my (ok|okay|permission|consent)|sounds (good|great|right|fine|perfect)|works for me|that works|exactly|correct|that's right|that is right|go on|carry on|please continue|make it so|let's go|let's proceed|that's what i (want|wanted|asked for|'d like)|by all means|fire away|roger|happy with (that|it|this)|you can go ahead|AGREE)\b/;
/** Weaker agreement words, which a leading "no" overrides ("No, that's fine"). */
const WEAK_AFFIRM = /\b(okay|alright|fine|good|great|perfect|right|lovely|cool|excellent|wonderful|looks (right|good|correct|fine|great)|all good|that's fine|that is fine|fair enough|whatever|please)\b/;
/** A negated affirmative: "not okay", "don't go ahead", "doesn't sound right", "can't confirm". */
const NEGATED_AFFIRM = /\b(not|never|don't|do not|doesn't|does not|didn't|isn't|is not|won't|wouldn't|can't|cannot|shouldn't|no longer)\s+(\w+\s+){0,2}?(yes|okay|alright|fine|good|correct|right|confirm|go ahead|proceed|do it|do that|agree|acceptable|sure|sounds|work|works|want (it|that|this))\b/;
/** Refusing an action: "don't charge the card", "do not cancel". */
const REFUSE_ACTION = /\b(don't|do not|please don't|please do not|no need to|never)\s+(\w+\s+)?(do|go|proceed|charge|cancel|change|touch|use|process|book|add|refund|send|make|move|switch|bother|put|modify|remove|exchange|return|upgrade)\b/;
/** Leading refusal words. */
const LEADING_NO = /^(no|not now|not yet|stop|hold off)\b/;
const NEGATIVE_WORDS = /\b(no|not now|not yet|stop|hold off|wrong|incorrect)\b|\b(don't|do not)\b(?! (mind|care|worry|know|see why not))/;
/** Hedges that contain a negation ("not sure"), read before negations. */
const HEDGE_NEGATED = /\b(i'm not sure|i am not sure|not sure|not certain|not really sure|i don't know|i do not know)\b/g;
/** Hedges: the customer is not sure. */
const HEDGE = /\b(maybe|perhaps|probably|possibly|i guess|i suppose|suppose so|i think|think so|unsure|let me think|need to think|i'll think|think about it|kind of|sort of|depends|it depends|might|HEDGE)\b/;
/** Deferrals: not now, not yet decided. */
const DEFER = /\b(wait|hold on|hang on|one sec(ond)?|just a (sec(ond)?|moment|minute)|give me a (sec(ond)?|moment|minute)|let me (check|see|look|ask|talk)|before you do|first let me|not so fast)\b/;
/** Conditions attached to a yes. */
const CONDITION = /\b(if|only if|as long as|so long as|provided|providing|unless|on condition|assuming|on the condition)\b/;
/** Politeness that looks like a condition. */
const POLITE_IF = /\b(if (possible|you can|you could|you would|you don't mind|that's okay with you)|if that's all|if so)(?=\s*([.,!?]|$))/g;
/** Partial consent: a qualification after (or instead of) the yes. */
const PARTIAL = /\b(except|apart from|other than|instead|rather than|only the|only for|only one|just the|just one|without the|not the|but not|however)\b/;
/** A "but" tail that does not qualify the yes ("but please be quick", "but thanks"). */
const HARMLESS_BUT = /^(please )?(be )?(quick|quickly|fast|hurry( up)?|asap|make it (quick|fast|snappy)|thanks|thank you)\b/;
/** Self-corrections: the part after the last one decides. */
const CORRECTION = /\b(actually|on second thought|on second thoughts|scratch that|wait,? no|sorry,? i mean|i mean|no wait|oh wait)\b/g;
/** A question asked as a request to go on: "Could you go ahead, please?" */
const REQUEST_QUESTION = /^(can|could|would|will) you (please )?(just )?(go ahead|proceed|do (it|that|so)|process (it|that)|book (it|that)|make the change|confirm it|get (it|that) done)(,? (and (do|process|submit|book|make|finish) (it|that|this|the \w+)|please|now|for me|then|right away))*$/;
/** Pleasantries whose words look like agreement ("have a good day"). */
const PLEASANTRY = /\b(have a (good|great|nice|lovely|wonderful) (day|one|trip|evening|weekend|night)|good (morning|afternoon|evening|night))\b/g;
/** A sentence read as a question even without "?" in chat. */
const QUESTION_START = /^(what|when|where|how|why|which|who|is (it|that|there|this)|are (there|you)|does (it|that|this)|do (you|i)|will (it|i|there|that|this)|can (i|you)|could (i|you)|should i)\b/;

// ---- reply classification ------------------------------------------------------------------

/** Splits into sentences (keeping whether each ends with "?"). */
function sentences(t: string): { text: string; question: boolean }[] {
  const out: { text: string; question: boolean }[] = [];
  const re = /[^.!?;:\n]+([.!?;:\n]+|$)/g;
  for (const m of t.matchAll(re)) {
    const raw = m[0].trim();
    if (!raw) continue;
    const text = raw.replace(/[.!?;:\n\s]+$/, '').trim();
    if (!text) continue;
    const question = /\?/.test(m[1] ?? '') || (QUESTION_START.test(text) && !REQUEST_QUESTION.test(text));
    out.push({ text, question });
  }
  return out;
}

/** The text after the last self-correction that still carries a cue, or the whole text. */
function afterCorrection(t: string, cues: string[]): string {
  const marks = [...t.matchAll(CORRECTION)];
  for (let i = marks.length - 1; i >= 0; i--) {
    const m = marks[i];
    const rest = t.slice(m.index! + m[0].length).replace(/^[\s,.!:-]+/, '');
    if (rest && (STRONG_AFFIRM.test(rest) || WEAK_AFFIRM.test(rest) || /\b(no|not|don't|keep|leave|cancel|stop)\b/.test(rest) || /\?/.test(rest))) {
      cues.push(`correction:${m[0]}`);
      return rest;
    }
  }
  return t;
}

/** Cues found in one text: affirmations outside questions, refusals, hedges, qualifications. */
interface Found {
  strong: string[];
  weak: string[];
  negation: string[];
  hedge: string[];
  qualify: string[];
  question: boolean;
  leadingNo: boolean;
}

function findCues(t0: string): Found {
  const f: Found = { strong: [], weak: [], negation: [], hedge: [], qualify: [], question: false, leadingNo: false };
  let t = t0.replace(POLITE_IF, ' ').replace(PLEASANTRY, ' ').replace(HEDGE_NEGATED, ' HEDGE ');
  t = t.replace(AGREE_IDIOMS, (m) => (f.strong.push(m), ' AGREE '));
  t = t.replace(REFUSE_IDIOMS, (m) => (f.negation.push(m), ' REFUSE '));
  const negAff = t.match(new RegExp(NEGATED_AFFIRM.source, 'g')) ?? [];
  for (const m of negAff) f.negation.push(m);
  t = t.replace(new RegExp(NEGATED_AFFIRM.source, 'g'), ' REFUSE ');
  const refuseAct = t.match(new RegExp(REFUSE_ACTION.source, 'g')) ?? [];
  for (const m of refuseAct) f.negation.push(m);
  t = t.replace(new RegExp(REFUSE_ACTION.source, 'g'), ' REFUSE ');
  const hedge = t.match(HEDGE);
  if (hedge) f.hedge.push(hedge[0]);
  const defer = t.match(DEFER);
  if (defer) f.hedge.push(defer[0]);
  f.leadingNo = LEADING_NO.test(t.replace(/^[\s,.!-]*(well|um+|uh+|hm+|er+|oh)?[\s,.!-]*/, ''));
  const negWord = t.match(NEGATIVE_WORDS);
  if (negWord) f.negation.push(negWord[0]);
  else if (f.leadingNo || /^not\b/.test(t.trim())) f.negation.push('not');
  const condition = t.match(CONDITION);
  if (condition) f.qualify.push(`condition:${condition[0]}`);
  const partial = t.match(PARTIAL);
  if (partial) f.qualify.push(`partial:${partial[0]}`);
  for (const m of t.matchAll(/\bbut\b\s*(.*)$/g)) {
    if (!HARMLESS_BUT.test(m[1].trim())) f.qualify.push('partial:but');
  }
  for (const s of sentences(t)) {
    if (s.question && !REQUEST_QUESTION.test(s.text)) {
      f.question = true;
      continue;
    }
    const strong = s.text.match(STRONG_AFFIRM) ?? (REQUEST_QUESTION.test(s.text) ? [s.text] : null);
    if (strong) f.strong.push(strong[0]);
    const weak = s.text.match(WEAK_AFFIRM);
    if (weak) f.weak.push(weak[0]);
  }
  return f;
}

/**
 * Classifies a customer's reply to an agent's request (see the module doc for the rules).
 * `reply` is raw text (signal tokens such as `###STOP###` are ignored). Never throws.
 * Examples: "Yes, please proceed." → yes; "No, that's not okay" → no; "yes but not the card" →
 * unclear; "No, that's fine" → no; "Could you go ahead, please?" → yes; "Is there a fee?" → unclear.
 */
export function classifyReply(reply: string): ReplyClassification {
  let known = classified.get(reply);
  if (known === undefined) {
    if (classified.size >= CLASSIFIED_MAX) classified.clear();
    classified.set(reply, (known = classifyReplyText(reply)));
  }
  return { label: known.label, cues: [...known.cues] };
}

/**
 * Replies already classified, by text (a run's scripted customers give the same few replies in
 * every episode, and the first classification of a text runs some thirty regular expressions):
 * at most {@link CLASSIFIED_MAX}, then it starts again. Callers get copies.
 */
const classified = new Map<string, ReplyClassification>();
const CLASSIFIED_MAX = 4096;

function classifyReplyText(reply: string): ReplyClassification {
  const cues: string[] = [];
  // "Yeah, no" is a refusal idiom of its own; after spelling normalisation it would read "yes, no".
  if (/^\W*(yeah|yea|yeh)\W+no\b(?! (problem|worries))/i.test(reply)) return { label: 'no', cues: ['negation:yeah, no'] };
  const whole = normalizeReply(reply);
  if (!whole || !/[a-z]/.test(whole)) return { label: 'unclear', cues: ['empty'] };
  if (SARCASM.test(whole)) return { label: 'no', cues: [`sarcasm:${whole.match(SARCASM)![0].trim()}`] };
  const t = afterCorrection(whole, cues);
  const f = findCues(t);
  cues.push(...f.strong.map((c) => `affirm:${c.trim()}`), ...f.weak.map((c) => `weak-affirm:${c.trim()}`));
  cues.push(...f.negation.map((c) => `negation:${c.trim()}`), ...f.hedge.map((c) => `hedge:${c.trim()}`), ...f.qualify);
  if (f.question) cues.push('question');
  const label = decide(f);
  return { label, cues };
}

function decide(f: Found): ReplyLabel {
  const affirm = f.strong.length > 0 || f.weak.length > 0;
  const strongDirective = f.strong.some((s) => !/^(yes|sure|correct|exactly|AGREE)$/.test(s.trim()) || s.trim() === 'AGREE');
  if (f.negation.length > 0) {
    if (!affirm) return 'no';
    // "No, it's fine, go ahead": a leading no before a directive is "no objection".
    if (f.leadingNo && f.negation.length === 1 && strongDirective && f.qualify.length === 0 && f.hedge.length === 0) return 'yes';
    if (f.leadingNo && f.strong.length === 0) return 'no';
    if (f.strong.length === 0 && f.negation.some((n) => n !== 'no')) return 'no';
    return 'unclear';
  }
  if (f.hedge.length > 0 || f.qualify.length > 0) return 'unclear';
  if (!affirm) return 'unclear';
  return 'yes';
}

// ---- agent requests ------------------------------------------------------------------------

/** A sentence that offers further help or closes the conversation. */
const CLOSING = /\b(anything else|something else|any other (questions?|thing|things|issues?|concerns?|requests?|way)|anything more|else (i|we) can (help|do|assist)|further (help|assistance|questions?)|have a (great|nice|good|lovely|wonderful|safe) (day|trip|flight|evening|weekend|one)|is that all|will that be all|help you with today|glad i could help|happy to help with anything|other questions)\b/i;
/** A sentence that asks the customer to approve an action. */
const ASKS_APPROVAL = /\b(confirm|proceed|go ahead|shall i|should i|may i(?! (have|ask|get|know|see|take|please have))|can i go ahead|would you like me to|would you like to proceed|do you want me to|is it (ok|okay|alright|all right|fine) (if|to|for me to)|want me to|okay to|ok to|alright to|fine to|is (that|this) (ok|okay|correct|right|fine|alright|acceptable)|are you (ok|okay|happy|fine|alright) with|do you agree|do you approve|sound good|sounds? okay|does (that|this) (work|sound|look)|yes\s*\/\s*no|happy for me to|would that be (ok|okay|alright|fine))\b/i;
/** A non-question sentence that still asks for approval ("Please confirm.", "Reply yes to proceed."). */
const ASKS_APPROVAL_STATEMENT = /\b(please confirm|(reply|say|answer|type) ['"]?yes|let me know if (i should|you('d| would) like me to|you want me to|that's (ok|okay|fine|correct))|awaiting your confirmation|once you confirm|with your (ok|okay|go-ahead|confirmation))\b|\(\s*yes\s*\/\s*no\s*\)/i;

/** Asking to confirm who the customer is, not to approve an action ("Can you confirm your email?"). */
const ASKS_IDENTITY = /\bconfirm (your|the) (full )?(email|e-mail|name|zip|zip code|postcode|user ?id|identity|date of birth|phone( number)?|account)\b/i;

/**
 * What an agent message asks: `confirmation` when some sentence asks the customer to approve an
 * action ("Shall I proceed?", "Would you like me to cancel it?", "Please confirm.") and is not a
 * closing offer; `closing_offer` when it only offers further help or closes ("Anything else?",
 * "Would you like me to help with anything else?"); `other` otherwise (statements, information
 * questions).
 */
export function classifyAgentRequest(text: string): RequestKind {
  const parts = text.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
  let closing = false;
  for (const s of parts) {
    if (ASKS_IDENTITY.test(s)) continue;
    if (CLOSING.test(s)) {
      closing = true;
      continue;
    }
    if ((/\?\s*$/.test(s) || /\(\s*yes\s*\/\s*no\s*\)/i.test(s)) && ASKS_APPROVAL.test(s)) return 'confirmation';
    // A tag question after a summary: "… to your gift card. Correct?"
    if (/^(correct|right|ok|okay|yes|agreed|alright|all good)\s*\?$/i.test(s)) return 'confirmation';
    if (ASKS_APPROVAL_STATEMENT.test(s)) return 'confirmation';
  }
  return closing ? 'closing_offer' : 'other';
}
