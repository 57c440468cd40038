import { render } from 'ink-testing-library';
import type { SessionRecord } from '../../src/core/store/index.js';
import { InputHistory } from '../../src/cli/chat/input-history.js';
import { prepareRepl, ReplRoot, type ReplStart } from '../../src/cli/chat/start-repl.js';
import { loadTeam, type TeamOptions } from '../../src/cli/team.js';
import { lockSession, type AdkStores } from '../../src/core/store/index.js';
import { lockedNewId } from '../../src/cli/session-access.js';
import { plain, sleep, waitFor } from './helpers.js';

const SETTLE_MS = 60;

export interface ReplUnderTest {
  start: ReplStart;
  /** The whole output so far (Ink's debug frames carry the committed transcript too), without colours. */
  screen(): string;
  /** The part below the committed transcript: the live tail, prompts, input and status line. */
  bottom(lines?: number): string;
  /** Types text (as a person does, one chunk) and waits until the input shows it. */
  type(text: string): Promise<void>;
  /** Sends keys: Enter, Ctrl-C, Esc or a prompt's hotkey. */
  press(key: string): Promise<void>;
  until(what: string | ((screen: string) => boolean), timeoutMs?: number): Promise<void>;
  /** True while a turn runs (the activity line offers Esc). */
  busy(): boolean;
  exited: Promise<void>;
  unmount(): void;
}

/** The REPL exactly as `adk chat` / `adk resume` builds it (team, session, host, app), rendered in memory. */
export async function openRepl(
  stores: AdkStores,
  teamOptions: TeamOptions,
  home: string,
  record?: SessionRecord,
  opts: { promptArmMs?: number } = {},
): Promise<ReplUnderTest> {
  const team = await loadTeam({ ...teamOptions, agentName: teamOptions.agentName ?? record?.rootAgent, agentsFile: teamOptions.agentsFile ?? record?.agentsFile });
  const lease = record ? await lockSession(stores.kv, record.id) : (await lockedNewId(stores)).lease;
  const start = await prepareRepl({ stores, team, record, lease, teamOptions });
  let onExit!: () => void;
  const exited = new Promise<void>((resolve) => (onExit = resolve));
  const r = render(<ReplRoot start={start} history={new InputHistory(home)} onExit={() => onExit()} promptArmMs={opts.promptArmMs ?? 0} />);
  const screen = () => plain(r.lastFrame());
  // A frame is on screen before React's effects run, so the keys of a prompt that just appeared
  // are listened to a moment later: settle briefly after each wait.
  const until = async (what: string | ((s: string) => boolean), timeoutMs = 10_000) => {
    await waitFor(() => (typeof what === 'string' ? screen().includes(what) : what(screen())), typeof what === 'string' ? JSON.stringify(what) : what.toString(), screen, timeoutMs);
    // React's scheduler runs passive effects in slices on later turns of the event loop: under a
    // loaded CI one pause is not enough (ci21: an answer typed at once into a new ask_user box was lost).
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    await sleep(SETTLE_MS);
  };
  return {
    start,
    screen,
    bottom: (lines = 12) => screen().split('\n').slice(-lines).join('\n'),
    async type(text) {
      r.stdin.write(text);
      await until((s) => s.split('\n').slice(-8).join('\n').includes(text));
    },
    async press(key) {
      r.stdin.write(key);
      await sleep(40);
    },
    until,
    busy: () => screen().split('\n').slice(-8).join('\n').includes('esc to cancel'),
    exited,
    unmount: () => {
      r.unmount();
      void start.host.conv.close();
    },
  };
}
