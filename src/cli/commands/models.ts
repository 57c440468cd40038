import { sanitizeText } from '../../ui/text/sanitize.js';
import { loadTeamConfig } from '../team.js';

const out = (s: string) => void process.stdout.write(sanitizeText(s));
const err = (s: string) => void process.stderr.write(sanitizeText(s));

export interface ModelListing {
  entry: string;
  provider: string;
  baseURL: string;
  models?: string[];
  /** Context windows (tokens) of the listed models, where the provider states them (native providers). */
  windows?: Record<string, number>;
  error?: string;
}

/**
 * `adk models`: the models each endpoint of the team offers (`GET /models`, Anthropic's model list).
 * 0 when every endpoint answered, 1 when one did not.
 */
export async function modelsCommand(opts: { agents?: string; json?: boolean }): Promise<number> {
  const { config } = await loadTeamConfig({ agentsFile: opts.agents });
  const listings = await listTeamModels(config.models.values(), process.env);
  for (const l of listings) {
    if (opts.json) out(`${JSON.stringify(l)}\n`);
    else if (l.error) err(`${l.entry} (${l.provider}${l.baseURL ? `, ${l.baseURL}` : ''}): ${l.error}\n`);
    else out(`${l.entry} (${l.provider}${l.baseURL ? `, ${l.baseURL}` : ''}):\n${l.models!.map((m) => `  ${m}${l.windows?.[m] ? `  (window ${l.windows[m].toLocaleString('en-US')})` : ''}\n`).join('') || '  (no models listed)\n'}`);
  }
  return listings.some((l) => l.error) ? 1 : 0;
}

/** One listing per distinct endpoint among the `models:` entries; the demo model lists itself. */
export async function listTeamModels(
  entries: Iterable<import('../../core/config/types.js').ModelConfig>,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<ModelListing[]> {
  const { modelFromConfig } = await import('../../core/config/model-from-config.js');
  const { listsModelInfo } = await import('../../core/models/model-info.js');
  const seen = new Set<string>();
  const out: ModelListing[] = [];
  for (const mc of entries) {
    let model;
    try {
      model = modelFromConfig(mc, env);
    } catch (e) {
      out.push({ entry: mc.name, provider: mc.provider, baseURL: mc.baseUrl ?? '', error: (e as Error).message });
      continue;
    }
    const baseURL = (model as { baseURL?: string }).baseURL ?? '';
    const key = `${mc.provider}|${baseURL}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!model.listModels) {
      out.push({ entry: mc.name, provider: mc.provider, baseURL, models: [model.modelName] });
      continue;
    }
    try {
      if (listsModelInfo(model)) {
        const infos = await model.listModelInfo(signal);
        const windows = Object.fromEntries(infos.filter((m) => m.contextWindow).map((m) => [m.id, m.contextWindow!]));
        out.push({ entry: mc.name, provider: mc.provider, baseURL, models: infos.map((m) => m.id), ...(Object.keys(windows).length ? { windows } : {}) });
        continue;
      }
      out.push({ entry: mc.name, provider: mc.provider, baseURL, models: await model.listModels(signal) });
    } catch (e) {
      out.push({ entry: mc.name, provider: mc.provider, baseURL, error: (e as Error).message });
    }
  }
  return out;
}
