/** Full-width messages: loading, and errors that say what is wrong instead of a blank page. */
import type { LoadError, Loaded } from '../data.js';
import type { ReactNode } from 'react';

const TITLES: Record<LoadError['kind'], string> = {
  store: 'The run store cannot be read',
  not_found: 'Not found',
  bad_request: 'Bad request',
  network: 'The viewer server does not answer',
};

/** A titled problem box (role=alert). */
export function Problem({ title, message, hint }: { title: string; message: string; hint?: string }) {
  return (
    <section className="problem" role="alert">
      <h1>{title}</h1>
      <p className="problem-message">{message}</p>
      {hint ? <p className="hint">{hint}</p> : null}
    </section>
  );
}

/** Renders `state`: a loading line, a {@link Problem} for an error, or `children(data)`. */
export function Show<T>({ state, children }: { state: Loaded<T>; children: (data: T) => ReactNode }) {
  if (state.status === 'loading') return <p className="loading">Loading…</p>;
  if (state.status === 'error') {
    const e = state.error;
    const hint =
      e.kind === 'store'
        ? 'servicegym view keeps retrying; fix the store, or restart the viewer with another --db PATH.'
        : e.kind === 'network'
          ? 'Restart `servicegym view` and reload this page.'
          : undefined;
    return <Problem title={TITLES[e.kind]} message={e.message} hint={hint} />;
  }
  return <>{children(state.data)}</>;
}
