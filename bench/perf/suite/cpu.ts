import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time (user + system, ms) a process and every live descendant have used so far, plus what its
 * waited-for children used before they exited (cutime, cstime): the whole server, should it run helper
 * processes (an index build). Read from /proc; a delta over a run is the run's CPU.
 */
export function processTreeCpuMs(pid: number): number {
  const all = readAllStats();
  const root = all.get(pid);
  if (!root) throw new Error(`process ${pid} is gone`);
  let ticks = root.utime + root.stime + root.cutime + root.cstime;
  for (const child of descendants(pid, all)) ticks += child.utime + child.stime + child.cutime + child.cstime;
  return (ticks * 1000) / clockTicks();
}

/** This process's CPU time (user + system, ms) so far: for peers served in-process. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

// --- internal ---

interface Stat {
  ppid: number;
  utime: number;
  stime: number;
  cutime: number;
  cstime: number;
}

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    const out = Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim();
    ticksPerSecond = Number(out) > 0 ? Number(out) : 100;
  }
  return ticksPerSecond;
}

function readAllStats(): Map<number, Stat> {
  const stats = new Map<number, Stat>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      stats.set(Number(name), parseStat(readFileSync(`/proc/${name}/stat`, "utf8")));
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return stats;
}

/** /proc/<pid>/stat after the command (which may hold spaces and parentheses): field 4 is ppid, 14–17 the times. */
function parseStat(text: string): Stat {
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const at = (field: number) => Number(fields[field - 3]);
  return { ppid: at(4), utime: at(14), stime: at(15), cutime: at(16), cstime: at(17) };
}

function descendants(pid: number, all: Map<number, Stat>): Stat[] {
  const out: Stat[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const parent = pending.pop()!;
    for (const [child, stat] of all) {
      if (stat.ppid !== parent) continue;
      out.push(stat);
      pending.push(child);
    }
  }
  return out;
}
