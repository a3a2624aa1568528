/**
 * `{{name}}` templates for judge and coding-agent prompts (data files, not code).
 */
import { BadInputError } from '../spec/errors.js';

/**
 * Replaces every `{{key}}` with `values[key]`, literally (no `$` patterns). Throws
 * {@link BadInputError} if the template names a key that `values` lacks.
 */
export function fillTemplate(template: string, values: Record<string, string>, file = 'template'): string {
  return template.replace(/\{\{([a-z_]+)\}\}/g, (m, key: string) => {
    if (!(key in values)) throw new BadInputError(`unknown placeholder ${m} (known: ${Object.keys(values).map((k) => `{{${k}}}`).join(', ')})`, { file });
    return values[key];
  });
}

/** Length in Unicode code points (Python `len(str)`), the unit of the seed's prompt metrics. */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
