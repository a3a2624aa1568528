/** The viewer's "continue it with" command quotes the run id for the shell, as the CLI's end hint does. */
import { describe, expect, it } from 'vitest';
import { resumeCommand } from '../../viewer/src/format.js';

describe('resumeCommand', () => {
  it('quotes a run id that a shell would split or expand', () => {
    expect(resumeCommand({ id: 'run-airline-2026-12-02T14-37-57-866Z', domain: 'airline' })).toBe('servicegym run --domain airline --resume run-airline-2026-12-02T14-37-57-866Z');
    expect(resumeCommand({ id: "it's a/run", domain: 'airline' })).toBe("servicegym run --domain airline --resume 'it'\\''s a/run'");
  });
});
