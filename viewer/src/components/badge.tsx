/** Small coloured labels for outcomes, verdicts, release statuses and changes. */

const TONES: Record<string, string> = {
  pass: 'good',
  fixed: 'good',
  improved: 'good',
  regressed: 'bad',
  stable: 'good',
  passed: 'good',
  partial: 'warn',
  canary: 'warn',
  candidate: 'info',
  control: 'muted',
  unchanged: 'muted',
  not_judged: 'muted',
  unjudged: 'muted',
  added: 'info',
  removed: 'muted',
  fail: 'bad',
  failed: 'bad',
  broken: 'bad',
  rejected: 'bad',
  rolled_back: 'bad',
  'rolled-back': 'bad',
  promoted: 'good',
  error: 'violet',
};

/** A badge whose colour follows its `value` (pass, fail, canary, fixed, ...). */
export function Badge({ value, text }: { value: string; text?: string }) {
  return <span className={`badge tone-${TONES[value] ?? 'muted'}`}>{text ?? value.replace(/_/g, ' ')}</span>;
}
