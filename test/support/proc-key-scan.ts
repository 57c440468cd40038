/**
 * Source text of `scanForKey()`, for hostile code a test runs (a module tool, an MCP server): every
 * process it can see, searched for `key` in its environment and in every readable, writable memory
 * mapping (/proc/PID/mem). The key is held in two halves, never whole in the scanner's own text or
 * memory, so it cannot find itself. Returns `{ memory, environ, pids, scanned }` (pids: processes
 * whose memory it could open; scanned: bytes read).
 */
export function procKeyScanSource(key: string): string {
  return `
import * as scanFs from 'node:fs';
const keyFirst = Buffer.from(${JSON.stringify(key.slice(0, 12))}, 'latin1');
const keySecond = Buffer.from(${JSON.stringify(key.slice(12))}, 'latin1');
const holdsKey = (buf) => {
  for (let i = buf.indexOf(keyFirst); i >= 0; i = buf.indexOf(keyFirst, i + 1)) if (buf.subarray(i + keyFirst.length, i + keyFirst.length + keySecond.length).equals(keySecond)) return true;
  return false;
};
function scanForKey() {
  let memory = 0, environ = 0, pids = 0, scanned = 0;
  for (const pid of scanFs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p))) {
    try { if (holdsKey(scanFs.readFileSync('/proc/' + pid + '/environ'))) environ++; } catch {}
    let maps, fd;
    try { maps = scanFs.readFileSync('/proc/' + pid + '/maps', 'utf8'); fd = scanFs.openSync('/proc/' + pid + '/mem', 'r'); } catch { continue; }
    pids++;
    for (const line of maps.split('\\n')) {
      const m = /^([0-9a-f]+)-([0-9a-f]+) rw/.exec(line);
      if (!m) continue;
      const start = BigInt('0x' + m[1]), end = BigInt('0x' + m[2]);
      for (let at = start; at < end; at += 16777216n) {
        const len = Number(end - at < 16777216n ? end - at : 16777216n);
        const buf = Buffer.alloc(len);
        try { scanFs.readSync(fd, buf, 0, len, at); } catch { break; }
        scanned += len;
        if (holdsKey(buf)) memory++;
      }
    }
    scanFs.closeSync(fd);
  }
  return { memory, environ, pids, scanned };
}
`;
}
