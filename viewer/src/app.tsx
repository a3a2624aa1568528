/** The viewer's shell: header, hash routing and the page for the current route. */
import { useEffect, useState } from 'react';
import { parseHash, runsHref, compareHref, type Route } from './route.js';
import { staticData } from './data.js';
import { when } from './format.js';
import { RunsPage } from './pages/runs-page.js';
import { RunPage } from './pages/run-page.js';
import { EpisodePage } from './pages/episode-page.js';
import { ComparePage } from './pages/compare-page.js';
import { OptimizerPage } from './pages/optimizer-page.js';
import { Problem } from './components/problem.js';
import { ThemeToggle } from './theme.js';
import { usePageTitle } from './title.js';

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'runs':
      return <RunsPage filters={route.filters} />;
    case 'run':
      return <RunPage key={route.id} id={route.id} filters={route.filters} />;
    case 'episode':
      return <EpisodePage key={`${route.id}\u0000${route.eid}`} id={route.id} eid={route.eid} turn={route.turn} />;
    case 'compare':
      return <ComparePage a={route.a} b={route.b} force={route.force} />;
    case 'optimizer':
      return <OptimizerPage key={route.id} id={route.id} />;
    case 'unknown':
      return <NoSuchPage hash={route.hash} />;
  }
}

function NoSuchPage({ hash }: { hash: string }) {
  usePageTitle('No such page');
  return <Problem title="No such page" message={`Nothing lives at ${hash}.`} />;
}

export function App() {
  const route = useRoute();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [route.page, 'id' in route ? route.id : '', 'eid' in route ? route.eid : '']);
  return (
    <>
      <a className="skip-link" href="#main" onClick={(ev) => {
        ev.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        Skip to content
      </a>
      <header className="topbar" role="banner">
        <a className="brand" href={runsHref()}>
          servicegym <span>view</span>
        </a>
        <nav aria-label="main">
          <a href={runsHref()} className={route.page === 'runs' ? 'active' : ''} aria-current={route.page === 'runs' ? 'page' : undefined}>Runs</a>
          <a href={compareHref()} className={route.page === 'compare' ? 'active' : ''} aria-current={route.page === 'compare' ? 'page' : undefined}>Compare</a>
        </nav>
        <span className="mode" title={staticData ? `static export: data embedded in data.js${staticData.generated_at ? `, newest run started ${when(staticData.generated_at)}` : ''}` : 'live: reads the run store on every request'}>
          {staticData ? `static export${staticData.generated_at ? ` · ${when(staticData.generated_at)}` : ''}` : 'live · read-only'}
        </span>
        <ThemeToggle />
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} />
      </main>
    </>
  );
}
