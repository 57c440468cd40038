import type { ChatUi } from '../../ui/index.js';
import type { ChatHost } from './chat-host.js';
import { addMemory, memoryChoices, readMemory, type MemoryScope } from './memory.js';

/** `# line` (a line to add) or `/memory` (edit a file): asks which AGENTS.md first. */
export async function memoryCommand(host: ChatHost, line: string | undefined, ui: ChatUi): Promise<void> {
  const workspace = host.team.workspace;
  const scope = (ui.pick ? await ui.pick(line ? 'Add this line to which memory?' : 'Edit which memory?', memoryChoices(workspace)) : 'project') as MemoryScope | undefined;
  if (!scope) return ui.info('Nothing saved.', 'muted');
  if (line !== undefined) {
    const file = addMemory(line, scope, workspace);
    return ui.info(`Added to ${file}; every agent reads it from the next run on.`, 'success');
  }
  if (!host.editInEditor) return ui.error('/memory needs the terminal for $EDITOR.');
  const m = readMemory(scope, workspace);
  const edited = host.editInEditor(m.text);
  if (edited === undefined) return ui.error(`The editor failed; ${m.file} was left as it was.`);
  if (edited === m.text) return ui.info(`${m.file} is unchanged.`, 'muted');
  m.save(edited);
  ui.info(`Saved ${m.file}; every agent reads it from the next run on.`, 'success');
}
