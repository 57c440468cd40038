/** A unified diff as the server sends it with an approval: added and removed lines marked and coloured. */
export function DiffView({ diff }: { diff: string }) {
  const lines = diff.replace(/\n$/, '').split('\n');
  const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
  const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
  return (
    <figure className="diff" aria-label={`changes: ${added} lines added, ${removed} removed`}>
      <figcaption>
        <span className="added">+{added}</span> <span className="removed">−{removed}</span>
      </figcaption>
      <pre>
        {lines.map((line, i) => (
          <span key={i} className={`line ${lineKind(line)}`}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
    </figure>
  );
}

function lineKind(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'file';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'ctx';
}
