/** Page titles: every page names itself (`<what> · servicegym view`), so tabs, history and screen readers tell pages apart. */
import { useEffect } from 'react';

/** Suffix of every page title. */
export const TITLE_SUFFIX = 'servicegym view';

/** Sets `document.title` to `title · servicegym view` while the calling page is shown. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${TITLE_SUFFIX}` : TITLE_SUFFIX;
  }, [title]);
}
