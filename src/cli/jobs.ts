/**
 * How many worker threads lint a run's modules when `--jobs` is not given:
 * workers only where they pay.
 *
 * Measured on 2 cores (bench/workers.mjs, the crossover; bench/RESULTS.md):
 * a run on the main thread already keeps about two cores busy (its CPU time
 * is ~1.9× its wall-clock time on a quiet machine: V8 compiles and collects
 * garbage on helper threads), and a worker costs CPU time of its own
 * (loading the bundle, warming V8 up again, optimising the parser again,
 * cloning its results back): `--jobs 2` took 1.14–1.63× the CPU time of
 * `--jobs 1` for runs of 8 to 500 modules (0.2–11 MB), 2.1–2.3× for 2
 * modules, and on a quiet machine it was slower over the whole corpus
 * (0.94× the speed of --jobs 1). On one core workers can only lose.
 *
 * Workers win when their CPU time spread over the cores beats one thread's
 * wall-clock time: cores > 1.9 × (CPU of workers / CPU of one thread),
 * i.e. more than ~3 cores for ≥ 1 MB per worker (ratio ≤ 1.6), more than
 * ~4 for the smallest runs (ratio ~2.2). The machine has 2 cores, so that
 * is the measured cost extrapolated, not a measured crossover. Hence: from
 * MIN_CORES cores, one core left to the main thread and V8's helpers, and
 * only when each worker gets MIN_BYTES and MIN_MODULES of work or more.
 *
 * The cores are those this process may run on (`os.availableParallelism()`:
 * the CPU affinity) and no more than its cgroup's CPU quota allows (a
 * container limited to 2 CPUs on a 64-core host is a 2-core machine);
 * readCpuQuota reads the quota (cgroup v2 `cpu.max`, v1
 * `cpu.cfs_quota_us` / `cpu.cfs_period_us`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { isModuleFileName } from "./paths.js";

/** Fewest usable cores on which the default starts workers. */
export const MIN_CORES = 4;
/** Module source each worker must get at least (bytes), to pay for its start. */
export const MIN_BYTES = 1_000_000;
/** Modules each worker must get at least. */
export const MIN_MODULES = 2;

/** What the default number of jobs is decided on. */
export interface JobsInput {
  /** The CPUs this process may run on (os.availableParallelism()). */
  cores: number;
  /** The cgroup's CPU quota in CPUs (1.5 = one and a half), or null when there is none. */
  quota: number | null;
  /** Modules in the run. */
  modules: number;
  /** The module source of the run, in bytes; asked for only when the cores and modules would allow workers. */
  bytes: () => number;
}

/** Whole cores the process can keep busy: the CPUs it may run on, within the cgroup's quota (at least 1). */
export function usableCores(cores: number, quota: number | null): number {
  const limit = quota === null ? cores : Math.min(cores, Math.floor(quota));
  return Math.max(1, limit);
}

/**
 * The default `--jobs`: 1 (every module on the main thread) unless there are
 * MIN_CORES usable cores or more and enough work for two workers or more;
 * then one worker per usable core but one, and no more than the modules
 * (MIN_MODULES each) and the bytes (MIN_BYTES each) can feed.
 */
export function defaultJobs(input: JobsInput): number {
  const cores = usableCores(input.cores, input.quota);
  if (cores < MIN_CORES) return 1;
  const byModules = Math.min(cores - 1, Math.floor(input.modules / MIN_MODULES));
  if (byModules < 2) return 1;
  const jobs = Math.min(byModules, Math.floor(input.bytes() / MIN_BYTES));
  return jobs >= 2 ? jobs : 1;
}

/** CPUs of a cgroup v2 `cpu.max` ("max 100000", "150000 100000"); null for no limit or text that is not one. */
export function quotaOfCpuMax(text: string): number | null {
  const [quota, period] = text.trim().split(/\s+/);
  if (quota === undefined || quota === "max") return null;
  return quotaOf(Number(quota), period === undefined ? 100_000 : Number(period));
}

/** CPUs of cgroup v1 `cpu.cfs_quota_us` and `cpu.cfs_period_us`; null for no limit (-1). */
export function quotaOfCfs(quotaText: string, periodText: string): number | null {
  return quotaOf(Number(quotaText.trim()), Number(periodText.trim()));
}

function quotaOf(quota: number, period: number): number | null {
  if (!Number.isFinite(quota) || !Number.isFinite(period) || quota <= 0 || period <= 0) return null;
  return quota / period;
}

/** Where a process's cgroup files are: the root of the cgroup file systems and the process's /proc/self/cgroup. */
export interface CgroupPaths {
  root: string;
  self: string;
}

const SYSTEM: CgroupPaths = { root: "/sys/fs/cgroup", self: "/proc/self/cgroup" };

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** A cgroup's directory and its ancestors up to the mount point, deepest first (the mount point alone when the cgroup's path is unknown). */
function cgroupDirs(mount: string, cgroup: string | undefined): string[] {
  const dirs: string[] = [];
  let rel = cgroup === undefined ? "/" : cgroup;
  for (;;) {
    dirs.push(path.join(mount, rel));
    if (rel === "/" || rel === "" || rel === ".") break;
    rel = path.posix.dirname(rel);
  }
  return dirs;
}

/**
 * The CPU quota of this process's cgroup, in CPUs, or null when there is
 * none (or no cgroup file can be read: not Linux). The smallest quota of
 * the process's cgroup and its ancestors counts, for cgroup v2 (`0::PATH`
 * in /proc/self/cgroup; `cpu.max`) and for v1 (the `cpu` controller's line;
 * `cpu/` or `cpu,cpuacct/` under the root). Inside a container the path
 * /proc/self/cgroup names may not exist under the root, whose own files
 * are then the container's; they are read too. A few small files, read
 * only for runs of several modules.
 */
export function readCpuQuota(paths: CgroupPaths = SYSTEM): number | null {
  const lines = (readText(paths.self) ?? "").split("\n");
  const v2 = lines.find((l) => l.startsWith("0::"))?.slice(3);
  const v1 = lines.map((l) => l.split(":")).find((f) => f.length >= 3 && f[1]!.split(",").includes("cpu"))?.slice(2).join(":");
  const found: number[] = [];
  const add = (q: number | null): void => {
    if (q !== null) found.push(q);
  };
  for (const dir of cgroupDirs(paths.root, v2)) {
    const text = readText(path.join(dir, "cpu.max"));
    if (text !== undefined) add(quotaOfCpuMax(text));
  }
  for (const mount of ["cpu", "cpu,cpuacct"]) {
    for (const dir of cgroupDirs(path.join(paths.root, mount), v1)) {
      const quota = readText(path.join(dir, "cpu.cfs_quota_us"));
      const period = readText(path.join(dir, "cpu.cfs_period_us"));
      if (quota !== undefined && period !== undefined) add(quotaOfCfs(quota, period));
    }
  }
  return found.length === 0 ? null : Math.min(...found);
}

/** The module source (bytes) of the module directories: the sizes of their module files; an unreadable one counts 0. */
export function moduleBytes(dirs: readonly string[]): number {
  let bytes = 0;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!isModuleFileName(name)) continue;
      try {
        bytes += statSync(path.join(dir, name)).size;
      } catch {
        // gone or unreadable: the lint says so
      }
    }
  }
  return bytes;
}
