/**
 * Reading the web surface's accessibility snapshots (`src/surfaces/web-snapshot.ts`): the line
 * of an element ref, and the ref of an element found by role and accessible name — how the
 * oracle and scripted agents address elements, as a person reads the page.
 */

/** The outline line of `ref` in a snapshot text (trimmed), or null when the snapshot has none. */
export function refLine(snapshot: string, ref: string): string | null {
  const tag = `[ref=${ref}]`;
  for (const line of snapshot.split('\n')) if (line.includes(tag)) return line.trim();
  return null;
}

/**
 * The ref of the first node of `snapshot` with `role` whose accessible name equals `name`
 * (case-sensitive, after collapsing whitespace) or, with `exact: false`, contains it; null when
 * there is none. The oracle and scripted agents address elements this way.
 */
export function findRef(snapshot: string, role: string, name: string, opts: { exact?: boolean } = {}): string | null {
  const want = name.replace(/\s+/g, ' ').trim();
  const re = /^\s*- ([\w-]+)(?: ("(?:[^"\\]|\\.)*"))?.*\[ref=(e\d+)\]/;
  for (const line of snapshot.split('\n')) {
    const m = re.exec(line);
    if (!m || m[1] !== role) continue;
    const got = m[2] ? (JSON.parse(m[2]) as string) : '';
    if (opts.exact === false ? got.includes(want) : got === want) return m[3];
  }
  return null;
}
