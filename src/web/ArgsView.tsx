/** A call's arguments, readable: each field by name, long or multi-line text in its own block. */
export function ArgsView({ args }: { args: unknown }) {
  if (args === undefined || args === null) return null;
  if (typeof args !== 'object' || Array.isArray(args)) return <pre className="args-raw">{typeof args === 'string' ? args : JSON.stringify(args, null, 2)}</pre>;
  const entries = Object.entries(args as Record<string, unknown>);
  if (!entries.length) return <div className="args-empty">no arguments</div>;
  return (
    <dl className="args">
      {entries.map(([key, value]) => (
        <div key={key} className="arg">
          <dt>{key}</dt>
          <dd>{typeof value === 'string' && (value.includes('\n') || value.length > 80) ? <pre>{value}</pre> : <code>{typeof value === 'string' ? value : JSON.stringify(value)}</code>}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The one argument that says most about a call, for its collapsed row (`path: notes.md`). */
export function argsSummary(args: unknown): string {
  if (!args || typeof args !== 'object') return typeof args === 'string' ? args.slice(0, 80) : '';
  const entries = Object.entries(args as Record<string, unknown>);
  const preferred = ['path', 'command', 'query', 'url', 'name', 'pattern'];
  const [key, value] = entries.find(([k]) => preferred.includes(k)) ?? entries[0] ?? [];
  if (key === undefined) return '';
  const text = typeof value === 'string' ? value.split('\n')[0]! : Array.isArray(value) ? `${value.length} item${value.length === 1 ? '' : 's'}` : value && typeof value === 'object' ? '{…}' : String(value);
  return `${key}: ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`;
}
