import type { ModelConfig } from '../../core/config/types.js';
import { DEMO_MODEL_NAME } from '../../core/models/demo.js';

/** Claude Code's model aliases in command files: the first model an endpoint lists with this word. */
const ALIASES = ['opus', 'sonnet', 'haiku'];

/**
 * The model id a command file's `model:` names, resolved as `/model` resolves one (a model of the
 * team's endpoints), or why it cannot be used. `demo` is adk's offline model. A name the endpoints'
 * lists do not have is an error; when no endpoint could list its models, the name is taken as it is
 * (nothing says it is wrong; the endpoint will).
 */
export async function resolveCommandModel(
  name: string,
  current: string,
  entries: readonly ModelConfig[],
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<{ model: string } | { error: string }> {
  if (name === DEMO_MODEL_NAME || current.split(', ').includes(name)) return { model: name };
  const { listTeamModels } = await import('../commands/models.js');
  const listings = await listTeamModels(entries, env, signal);
  const listed = listings.flatMap((l) => l.models ?? []);
  if (listed.includes(name)) return { model: name };
  const alias = ALIASES.includes(name.toLowerCase()) ? listed.find((m) => m.toLowerCase().includes(name.toLowerCase())) : undefined;
  if (alias) return { model: alias };
  if (!listings.length || listings.some((l) => l.error)) return { model: name };
  const offered = [...new Set(listed)];
  return { error: `model '${name}' is not offered by this team's model endpoints${offered.length ? ` (they offer: ${offered.slice(0, 12).join(', ')}${offered.length > 12 ? ', …' : ''})` : ''}` };
}
