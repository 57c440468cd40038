import { Box, Text } from 'ink';
import { formatUsd } from '../../core/models/pricing.js';

export interface StatusLineProps {
  model?: string;
  sessionId?: string;
  tokensIn?: number;
  tokensOut?: number;
  /** Tokens in the model's context now, and the most it takes: shown as `ctx 62%`. */
  contextTokens?: number;
  contextWindow?: number;
  /** What the session has cost so far, when the model's price is known. */
  costUsd?: number | undefined;
  elapsedMs?: number;
  /** The session is saved: an interrupted or closed session loses nothing. */
  saved?: boolean;
  /** A short key hint on the right, e.g. `Ctrl-C again to exit`. */
  hint?: string;
  /** The permission mode when it is not the default (`⏸ plan mode`), first on the line. */
  mode?: string | undefined;
  width: number;
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** One line under the input: model · session · tokens · time · saved, and a key hint. */
/** `ctx 62%` with a known window, `ctx 12k` without one; nothing before the first reported usage. */
export function formatContext(tokens: number | undefined, window: number | undefined): string | undefined {
  if (tokens === undefined) return undefined;
  if (!window) return `ctx ${formatTokens(tokens)}`;
  return `ctx ${Math.min(999, Math.round((tokens / window) * 100))}%`;
}

export function StatusLine({ model, sessionId, tokensIn = 0, tokensOut = 0, contextTokens, contextWindow, costUsd, elapsedMs, saved, hint, mode, width }: StatusLineProps) {
  const parts: string[] = [];
  if (model) parts.push(model);
  if (sessionId) parts.push(`session ${sessionId.slice(0, 8)}`);
  parts.push(`↑${formatTokens(tokensIn)} ↓${formatTokens(tokensOut)}${costUsd !== undefined ? ` ${formatUsd(costUsd)}` : ''}`);
  const ctx = formatContext(contextTokens, contextWindow);
  if (ctx) parts.push(ctx);
  if (elapsedMs !== undefined && elapsedMs > 0) parts.push(formatElapsed(elapsedMs));
  return (
    <Box width={width} justifyContent="space-between">
      <Text dimColor={!mode} wrap="truncate-end">
        {mode ? <Text color="magenta">{`${mode} · `}</Text> : null}
        <Text dimColor>{parts.join(' · ')}</Text>
        {saved ? <Text color="green">{' · ✓ saved'}</Text> : null}
      </Text>
      {hint ? (
        <Text color="yellow" wrap="truncate-end">
          {hint}
        </Text>
      ) : null}
    </Box>
  );
}
