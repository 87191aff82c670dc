/** The machine a run measured on, recorded beside every figure: ratios travel, absolute figures do not. */
import os from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started: above the core count, other work shared the machine. */
  loadAverage: number;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

/** CPU seconds a process has used so far (Linux /proc), or undefined where that cannot be read. */
export async function cpuSeconds(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const { readFile } = await import('node:fs/promises');
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / 100 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process (Linux /proc), now and at its peak, in MiB; undefined where it cannot be read. */
export async function residentMiB(
  pid: number | undefined,
): Promise<{ rssMiB: number; peakMiB: number } | undefined> {
  if (pid === undefined) return undefined;
  try {
    const { readFile } = await import('node:fs/promises');
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const rssMiB = kib('VmRSS') / 1024;
    const peakMiB = kib('VmHWM') / 1024;
    return Number.isFinite(rssMiB) && Number.isFinite(peakMiB) ? { rssMiB, peakMiB } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of a process and its children alive now (Linux /proc): a PostgreSQL server's work is in the backends
 * its postmaster forked, one per connection.
 */
export async function treeCpuSeconds(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const { readdir, readFile } = await import('node:fs/promises');
  const own = await cpuSeconds(pid);
  if (own === undefined) return undefined;
  let children = 0;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // The parent's pid is the 2nd field after the command name.
    if (Number(fields[1]) === pid) children += (await cpuSeconds(Number(entry))) ?? 0;
  }
  return own + children;
}
