"""Plays a kitty-protocol terminal for `adk chat`: answers the protocol query, types keys as
kitty encodes them once the protocol is on, and reports what it saw as JSON on stdout.
Usage: kitty-pty.py <cwd> <node> <adk bin>   (environment: the child's)"""
import fcntl, json, os, pty, select, struct, sys, termios, time

cwd, node, adk = sys.argv[1:4]
pid, fd = pty.fork()
if pid == 0:
    os.chdir(cwd)
    os.execvpe(node, [node, adk, 'chat'], os.environ)

# A 30×100 window, as a real terminal has (a 0×0 one would make every frame taller than the screen).
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 30, 100, 0, 0))
seen = b''
def read_until(pred, timeout):
    global seen
    end = time.time() + timeout
    while time.time() < end:
        if pred(seen):
            return True
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return pred(seen)
            if not chunk:
                return pred(seen)
            seen += chunk
    return pred(seen)

report = {}
report['queried'] = read_until(lambda s: b'\x1b[?u' in s, 15)
if report['queried']:
    # Late, as a loaded machine or a remote terminal answers: past Ink's own 200 ms window, which
    # lost the answer at random on a busy start.
    time.sleep(0.6)
    os.write(fd, b'\x1b[?0u')  # "kitty protocol supported, no flags yet"
report['enabled'] = read_until(lambda s: b'\x1b[>1u' in s, 5)
report['prompt'] = read_until(lambda s: b'essage, or / for commands' in s, 15)
time.sleep(0.5)
for part in [b'hello', b'\x1b[13;2u', b'world']:
    os.write(fd, part)
    time.sleep(0.15)
os.write(fd, b'\r')
report['answered'] = read_until(lambda s: b'got it' in s, 15)
time.sleep(0.3)
mark = len(seen)
os.write(fd, b'\x1b[99;5u')  # Ctrl-C as kitty sends it
time.sleep(0.3)
os.write(fd, b'\x1b[99;5u')
read_until(lambda s: False, 5)
try:
    _, status = os.waitpid(pid, 0)
    report['exit'] = os.waitstatus_to_exitcode(status)
except ChildProcessError:
    report['exit'] = None
report['popped'] = b'\x1b[<u' in seen[mark:]
report['clears'] = seen.count(b'\x1b[2J') + seen.count(b'\x1b[3J')
report['leaked'] = b'?0u' in seen.replace(b'\x1b[?0u', b'')
if os.environ.get('KITTY_DEBUG'): report['seen'] = seen.decode(errors='replace')
print(json.dumps(report))
