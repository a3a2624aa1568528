/**
 * How the episode page shows the steps of a surface whose tool answers are screens or pages
 * rather than data: an explicit map from surface name to its step view (the terminal's screens,
 * the browser's steps). A surface without an entry shows the transcript alone.
 */
import type { ReactElement } from 'react';
import type { EpisodeDetail } from '../../../src/viewer/types.js';
import { TerminalScreens } from './terminal-screens.js';
import { WebSteps } from './web-steps.js';

export interface SurfaceStepView {
  /** The section's heading. */
  title: string;
  Steps: (props: { detail: EpisodeDetail; turnHref: (i: number) => string }) => ReactElement;
}

const browser: SurfaceStepView = { title: 'Browser steps', Steps: WebSteps };

export const SURFACE_VIEWS: Readonly<Record<string, SurfaceStepView>> = {
  terminal: { title: 'Terminal screens', Steps: ({ detail, turnHref }) => <TerminalScreens entries={detail.transcript} turnHref={turnHref} /> },
  web: browser,
  'web-screenshot': browser,
};
