/**
 * The seccomp filter bwrap loads before it runs a sandboxed command (`--seccomp FD`): a classic BPF
 * program that makes the calls a sandbox escape needs fail with EPERM. Dropping every capability
 * already refuses most of them; this is the second wall, and the one that still holds where a
 * kernel bug or a leftover capability would let `mount` or `ptrace` through.
 *
 * Written here (no libseccomp in Node): a few instructions, read by the kernel as `struct sock_filter`
 * (u16 code, u8 jt, u8 jf, u32 k), little-endian on both architectures we know.
 */

const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;
/** x32 system calls on x86_64 carry this bit: refused whole, so none of them can stand in for a refused 64-bit one. */
const X32_SYSCALL_BIT = 0x40000000;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;

/** What a sandboxed command never needs, with each call's number per architecture. */
const REFUSED: Record<string, { x64: number; arm64: number }> = {
  // Mounts: remounting the read-only system rw is the classic escape.
  mount: { x64: 165, arm64: 40 },
  umount2: { x64: 166, arm64: 39 },
  pivot_root: { x64: 155, arm64: 41 },
  chroot: { x64: 161, arm64: 51 },
  open_tree: { x64: 428, arm64: 428 },
  move_mount: { x64: 429, arm64: 429 },
  fsopen: { x64: 430, arm64: 430 },
  fsconfig: { x64: 431, arm64: 431 },
  fsmount: { x64: 432, arm64: 432 },
  fspick: { x64: 433, arm64: 433 },
  mount_setattr: { x64: 442, arm64: 442 },
  // Other namespaces and file handles that name files outside the mounts (the "shocker" escape).
  setns: { x64: 308, arm64: 268 },
  name_to_handle_at: { x64: 303, arm64: 264 },
  open_by_handle_at: { x64: 304, arm64: 265 },
  // Reading or steering other processes, the kernel keyring, kernel code.
  ptrace: { x64: 101, arm64: 117 },
  process_vm_readv: { x64: 310, arm64: 270 },
  process_vm_writev: { x64: 311, arm64: 271 },
  keyctl: { x64: 250, arm64: 219 },
  add_key: { x64: 248, arm64: 217 },
  request_key: { x64: 249, arm64: 218 },
  bpf: { x64: 321, arm64: 280 },
  perf_event_open: { x64: 298, arm64: 241 },
  userfaultfd: { x64: 323, arm64: 282 },
  kexec_load: { x64: 246, arm64: 104 },
  kexec_file_load: { x64: 320, arm64: 294 },
  init_module: { x64: 175, arm64: 105 },
  finit_module: { x64: 313, arm64: 273 },
  delete_module: { x64: 176, arm64: 106 },
  // The machine's own state.
  reboot: { x64: 169, arm64: 142 },
  swapon: { x64: 167, arm64: 224 },
  swapoff: { x64: 168, arm64: 225 },
  acct: { x64: 163, arm64: 89 },
  quotactl: { x64: 179, arm64: 60 },
  syslog: { x64: 103, arm64: 116 },
  settimeofday: { x64: 164, arm64: 170 },
  clock_settime: { x64: 227, arm64: 112 },
};

export const SECCOMP_REFUSED_CALLS: readonly string[] = Object.keys(REFUSED);

/** The program for this machine's architecture, or undefined where we do not know its call numbers. */
export function seccompProgram(arch: string = process.arch): Buffer | undefined {
  if (arch !== 'x64' && arch !== 'arm64') return undefined;
  const numbers = [...new Set(Object.values(REFUSED).map((n) => n[arch]))];
  type Insn = [code: number, jt: number, jf: number, k: number];
  // Layout: arch check, load nr, [x32 check], one compare per call, then ALLOW, then EPERM.
  const body: Insn[] = [];
  const compares = numbers.length + (arch === 'x64' ? 1 : 0);
  // Offsets count from the next instruction. From the i-th compare (0-based), EPERM is after the
  // remaining compares and the ALLOW.
  const toEperm = (i: number) => compares - 1 - i + 1;
  let i = 0;
  if (arch === 'x64') body.push([BPF_JGE_K, toEperm(i++), 0, X32_SYSCALL_BIT]);
  for (const nr of numbers) body.push([BPF_JEQ_K, toEperm(i++), 0, nr]);
  const program: Insn[] = [
    [BPF_LD_W_ABS, 0, 0, 4], // seccomp_data.arch
    // Another architecture's calls (i386 through int 0x80 on x86_64) have other numbers: all refused.
    [BPF_JEQ_K, 0, compares + 2, AUDIT_ARCH[arch]],
    [BPF_LD_W_ABS, 0, 0, 0], // seccomp_data.nr
    ...body,
    [BPF_RET_K, 0, 0, RET_ALLOW],
    [BPF_RET_K, 0, 0, RET_EPERM],
  ];
  const out = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], n) => {
    out.writeUInt16LE(code, n * 8);
    out.writeUInt8(jt, n * 8 + 2);
    out.writeUInt8(jf, n * 8 + 3);
    out.writeUInt32LE(k, n * 8 + 4);
  });
  return out;
}
