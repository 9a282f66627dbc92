import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = '/sys/fs/cgroup/cpu';
const PERIOD_US = 100_000;

export interface CpuCap {
  /** 'capped' when the process runs under the quota, else why it runs uncapped. */
  note: string;
  capped: boolean;
  release(): void;
}

/**
 * Caps one process at `cores` of CPU with a cgroup v1 `cpu.cfs_quota_us` of its own (needs root
 * and the v1 cpu controller at /sys/fs/cgroup/cpu). Where that cannot be done the process runs
 * uncapped and the note says why; the bench prints it next to the figures.
 */
export function capCpu(pid: number, name: string, cores: number): CpuCap {
  const dir = path.join(ROOT, name);
  try {
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
    writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(Math.round(cores * PERIOD_US)));
    writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
  } catch (err) {
    try {
      rmdirSync(dir);
    } catch {
      /* never made */
    }
    return { capped: false, note: `UNCAPPED (${ROOT}/${name}: ${(err as Error).message.split('\n')[0]})`, release: () => {} };
  }
  return {
    capped: true,
    note: `capped at ${cores} core`,
    // Only an empty cgroup can be removed: call once the process has exited.
    release: () => {
      try {
        rmdirSync(dir);
      } catch {
        /* still in use or gone */
      }
    },
  };
}
