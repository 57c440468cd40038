import { useState } from 'react';

/** Asks for the server's ADK_SERVE_TOKEN, kept for this tab only (sessionStorage). */
export function TokenForm({ onToken }: { onToken: (token: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      className="card token"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) onToken(value.trim());
      }}
    >
      <div className="card-title">This server needs its access token (ADK_SERVE_TOKEN).</div>
      <input aria-label="access token" type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} />
      <div className="buttons">
        <button className="primary" type="submit">
          Use token
        </button>
      </div>
    </form>
  );
}
