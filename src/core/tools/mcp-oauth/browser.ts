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
  // The URL comes from the server's metadata: only a web page (https, or http on this machine) is opened.
  const u = new URL(url);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback)) return Promise.reject(new Error(`refusing to open ${u.protocol} URL from the authorization server: only https (or http on this machine) is opened`));
  const [command, ...args] = browserCommand(url, env);
  return new Promise((resolve, reject) => {
    // The child gets only the URL and what a desktop needs to show it: never the keys in adk's environment.
    const child = spawn(command!, args, { stdio: 'ignore', detached: true, env: browserEnv(env) });
    child.once('error', (e) => reject(new Error(`could not open a browser with ${command}: ${e.message}; open the URL yourself`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

/** The variables a browser or xdg-open needs: the display, the session bus, the locale, the user's browser choice. */
function browserEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const keep = /^(PATH|HOME|USER|LOGNAME|DISPLAY|WAYLAND_DISPLAY|DBUS_SESSION_BUS_ADDRESS|LANG|LC_[A-Z]+|BROWSER|XDG_[A-Z_]+|TMPDIR)$/;
  return Object.fromEntries(Object.entries(env).filter(([k]) => keep.test(k)));
}
