/**
 * The run page's filters: text search (transcripts, tasks, checks), task id, label (persona,
 * prompt version), outcome, termination, failed check and "failed only". Every change rewrites
 * the URL (back to page 1), so a filtered view can be shared.
 */
import { useEffect, useMemo, useState } from 'react';
import type { EpisodeOutlineView } from '../../../src/viewer/types.js';
import { NO_FILTERS, runHref, type RunFilters } from '../route.js';
import { OUTCOME_WORDS } from './matrix.js';
import { warmSearch } from '../data.js';

export function countBy<T>(items: readonly T[], key: (t: T) => string[]): [string, number][] {
  const m = new Map<string, number>();
  for (const it of items) for (const k of key(it)) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** A text input that writes the URL as one types, keeping its own value so the caret never jumps. */
function TextFilter({ name, label, value, placeholder, onChange, onFocus }: { name: string; label: string; value: string; placeholder: string; onChange: (v: string) => void; onFocus?: () => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <label>
      {label}{' '}
      <input
        type="search"
        name={name}
        value={text}
        placeholder={placeholder}
        onFocus={onFocus}
        onChange={(ev) => {
          setText(ev.target.value);
          onChange(ev.target.value);
        }}
      />
    </label>
  );
}

function Choice({ name, label, value, options, onChange }: { name: string; label: string; value: string; options: [string, number][]; onChange: (v: string) => void }) {
  return (
    <label>
      {label}{' '}
      <select name={name} value={value} onChange={(ev) => onChange(ev.target.value)}>
        <option value="">any</option>
        {options.map(([v, n]) => (
          <option key={v} value={v}>{`${v} (${n})`}</option>
        ))}
      </select>
    </label>
  );
}

export function RunFiltersForm({ id, filters, episodes, shown, searching }: { id: string; filters: RunFilters; episodes: EpisodeOutlineView[]; shown: number; searching: boolean }) {
  const terminations = useMemo(() => countBy(episodes, (e) => (e.termination ? [e.termination] : [])), [episodes]);
  const checks = useMemo(() => countBy(episodes, (e) => e.failed_checks), [episodes]);
  const labels = useMemo(() => countBy(episodes, (e) => [e.label]), [episodes]);
  const outcomes = useMemo(() => countBy(episodes, (e) => [e.outcome]), [episodes]);
  const go = (change: Partial<RunFilters>) => window.location.replace(runHref(id, { ...filters, page: 1, ...change }));
  const active = filters.failedOnly || filters.termination || filters.check || filters.q || filters.task || filters.label || filters.outcome;
  return (
    <form className="filters" role="search" onSubmit={(ev) => ev.preventDefault()} aria-label="filter episodes">
      <TextFilter name="q" label="search" value={filters.q} placeholder="transcripts, tasks, checks" onChange={(q) => go({ q })} onFocus={() => warmSearch(id)} />
      <TextFilter name="task" label="task" value={filters.task} placeholder="task id" onChange={(task) => go({ task })} />
      {labels.length > 1 ? <Choice name="label" label="label" value={filters.label} options={labels} onChange={(label) => go({ label })} /> : null}
      <label>
        score{' '}
        <select name="outcome" value={filters.outcome} onChange={(ev) => go({ outcome: ev.target.value })}>
          <option value="">any</option>
          {outcomes.map(([o, n]) => (
            <option key={o} value={o}>{`${OUTCOME_WORDS[o as keyof typeof OUTCOME_WORDS] ?? o} (${n})`}</option>
          ))}
        </select>
      </label>
      <Choice name="termination" label="termination" value={filters.termination} options={terminations} onChange={(termination) => go({ termination })} />
      <Choice name="check" label="failed check" value={filters.check} options={checks} onChange={(check) => go({ check })} />
      <label>
        <input type="checkbox" name="failed" checked={filters.failedOnly} onChange={(ev) => go({ failedOnly: ev.target.checked })} /> failed only
      </label>
      <span className="count" data-testid="filter-count" aria-live="polite">
        {searching ? 'searching…' : `${shown} of ${episodes.length} episodes`}
      </span>
      {active ? (
        <a href={runHref(id, { ...NO_FILTERS, sort: filters.sort, desc: filters.desc })} className="clear">
          clear filters
        </a>
      ) : null}
    </form>
  );
}
