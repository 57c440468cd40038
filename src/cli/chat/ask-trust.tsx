import { render } from 'ink';
import { TrustPrompt } from '../../ui/components/TrustPrompt.js';
import type { UntrustedAgentsFileError } from '../team.js';

/** Asks, inline, whether to trust the folder's agents file; resolves once the person decides. */
export async function askTrust(e: UntrustedAgentsFileError): Promise<boolean> {
  let decided = false;
  return new Promise<boolean>((resolve) => {
    const width = Math.max(20, (process.stdout.columns || 80) - 1);
    const instance = render(
      <TrustPrompt
        file={e.file}
        powers={e.powers.map((p) => p.text)}
        width={width}
        {...('files' in e ? { title: "Do you trust this folder's hooks?", declineHint: 'continue without them' } : {})}
        onDecision={(trust) => {
          if (decided) return;
          decided = true;
          instance.unmount();
          resolve(trust);
        }}
      />,
      { exitOnCtrlC: false },
    );
  });
}
