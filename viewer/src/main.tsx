/** Entry of the viewer UI: mounts the app into #root. */
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { prime } from './data.js';
import { parseHash } from './route.js';
import { applyInitialTheme } from './theme.js';
import './styles.css';
import './additions.css';

applyInitialTheme();

// Fetch the first page's data while React starts.
prime(parseHash(window.location.hash));
createRoot(document.getElementById('root')!).render(<App />);
