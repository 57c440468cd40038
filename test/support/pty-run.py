"""Runs a command in a 30x100 pseudo-terminal and reports what it drew, as JSON on stdout.
Usage: pty-run.py <options json> <command> [args...]
Options: {"until": text to stop at (the process is then killed), "ctrlC": text after which Ctrl-C is
typed once, "hangup": text after which the terminal is closed (as when its window closes; the
process gets SIGHUP), "hangupFile": a file whose appearance does the same, "timeout": seconds (default 10)}. Output: {"output", "exit" (code, or null if
killed), "ctrlCToExitMs"}."""
import fcntl, json, os, pty, select, struct, sys, termios, time

opts = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(sys.argv[2], sys.argv[2:], os.environ)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 30, 100, 0, 0))
seen, start, sent, code = b'', time.time(), None, None
until = opts.get('until', '').encode() or None
ctrl_c = opts.get('ctrlC', '').encode() or None
hangup = opts.get('hangup', '').encode() or None
hangup_file = opts.get('hangupFile')
while time.time() - start < opts.get('timeout', 10):
    r, _, _ = select.select([fd], [], [], 0.05)
    if r:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b''
        seen += chunk
    if until and until in seen:
        break
    if (hangup and hangup in seen) or (hangup_file and os.path.exists(hangup_file)):
        os.close(fd)
        while time.time() - start < opts.get('timeout', 10) and code is None:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(status)
            else:
                time.sleep(0.05)
        break
    if ctrl_c and sent is None and ctrl_c in seen:
        os.write(fd, b'\x03')
        sent = time.time()
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        code = os.waitstatus_to_exitcode(status)
        break
if code is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
json.dump({'output': seen.decode('utf-8', 'replace'), 'exit': code, 'ctrlCToExitMs': round((time.time() - sent) * 1000) if sent and code is not None else None}, sys.stdout)
