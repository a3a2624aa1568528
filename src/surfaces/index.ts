/**
 * The surface registry: an explicit map from name to surface (how an agent reaches a domain's
 * back-end). Terminal, web and pixel surfaces register here beside `api`.
 */
import type { Surface } from '../spec/surface.js';
import { BadInputError } from '../spec/errors.js';
import { apiSurface } from './api.js';
import { webScreenshotSurface, webSurface } from './web.js';

export const surfaces: Record<string, Surface> = {
  api: apiSurface,
  web: webSurface,
  'web-screenshot': webScreenshotSurface,
};

/** The surface registered under `name`; throws {@link BadInputError} listing the known names. */
export function getSurface(name: string): Surface {
  const s = surfaces[name];
  if (!s) throw new BadInputError(`unknown surface '${name}' (known: ${Object.keys(surfaces).join(', ')})`);
  return s;
}
