import { render } from 'ink';
import type { SessionSummary } from '../../core/store/index.js';
import { Picker, type PickerProps } from '../../ui/components/Picker.js';
import { useKeys } from '../../ui/hooks/use-keys.js';
import { sessionPickerItems } from './slash-commands.js';

/** `adk resume` with no id: the saved sessions, newest first, to pick with ↑/↓ (typing filters); undefined on Esc. */
export async function pickSessionInline(list: readonly SessionSummary[]): Promise<string | undefined> {
  let decided = false;
  return new Promise<string | undefined>((resolve) => {
    const width = Math.max(20, (process.stdout.columns || 80) - 1);
    const rows = process.stdout.rows || 24;
    const instance = render(
      <CancellablePicker
        title="Resume which session?"
        items={sessionPickerItems(list.slice(0, 200))}
        filter
        width={width}
        maxRows={Math.max(3, Math.min(15, rows - 10))}
        onPick={(id) => {
          if (decided) return;
          decided = true;
          instance.unmount();
          resolve(id);
        }}
      />,
      { exitOnCtrlC: false },
    );
  });
}

/** Before the REPL nothing else reads Ctrl-C: here it cancels, as Esc does. */
function CancellablePicker(props: PickerProps) {
  useKeys((input, key) => {
    if (key.ctrl && input === 'c') props.onPick(undefined);
  });
  return <Picker {...props} />;
}
