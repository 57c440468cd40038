/**
 * Ink renders only a final frame when CI or CONTINUOUS_INTEGRATION is set (it decides when first
 * imported). We already know both ends are a terminal, so load it as interactive and put the
 * variables back for the commands the agents run.
 */
export async function importInkInteractive<T>(load: () => Promise<T>): Promise<T> {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  try {
    return await load();
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  }
}
