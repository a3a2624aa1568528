/** A unified diff, line by line, coloured by kind (header, hunk, added, removed, context). */

function kindOf(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'head';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'ctx';
}

export function DiffView({ diff, empty = 'No differences.' }: { diff: string | null; empty?: string }) {
  if (!diff) return <p className="hint">{empty}</p>;
  const lines = diff.replace(/\n$/, '').split('\n');
  return (
    <pre className="diff" data-testid="unified-diff">
      {lines.map((line, i) => (
        <span key={i} className={`diff-${kindOf(line)}`}>
          {line}
        </span>
      ))}
    </pre>
  );
}
