import { spawn } from 'node:child_process';

/**
 * The command that opens a URL: ADK_BROWSER when set (split on spaces; `%s` marks where the URL
 * goes, else it is the last argument), else the platform's opener. No shell is involved: the URL
 * comes from the authorization server and must not be interpreted.
 */
export function browserCommand(url: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string[] {
  const custom = env.ADK_BROWSER?.trim();
  if (custom) {
    const words = custom.split(/\s+/);
    return words.some((w) => w.includes('%s')) ? words.map((w) => w.replaceAll('%s', url)) : [...words, url];
  }
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler', url];
  return ['xdg-open', url];
}

/** Starts the browser on `url` and returns once it has been launched (not when the page closes). */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [command, ...args] = browserCommand(url, env);
  return new Promise((resolve, reject) => {
    // The child gets only the URL: no token is ever in it or in the environment adk was given.
    const child = spawn(command!, args, { stdio: 'ignore', detached: true, env });
    child.once('error', (e) => reject(new Error(`could not open a browser with ${command}: ${e.message}; open the URL yourself`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
