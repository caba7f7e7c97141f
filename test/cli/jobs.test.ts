/**
 * The default `--jobs` (src/cli/jobs.ts): the decision as a function of the
 * cores, the cgroup's CPU quota, the modules and their bytes, with exact
 * results; the cgroup reader on sample files of both cgroup versions; the
 * module bytes a run counts.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultJobs, MIN_BYTES, MIN_CORES, MIN_MODULES, moduleBytes, quotaOfCfs, quotaOfCpuMax, readCpuQuota, usableCores, type JobsInput } from "../../src/cli/jobs.js";

const MB = 1_000_000;

/** defaultJobs with `bytes` given as a number; `asked` says whether the bytes were asked for. */
function decide(cores: number, quota: number | null, modules: number, bytes: number): { jobs: number; asked: boolean } {
  let asked = false;
  const input: JobsInput = {
    cores,
    quota,
    modules,
    bytes: () => {
      asked = true;
      return bytes;
    },
  };
  return { jobs: defaultJobs(input), asked };
}

describe("the default number of jobs", () => {
  it("has the thresholds the README and ARCHITECTURE.md state", () => {
    expect({ MIN_CORES, MIN_BYTES, MIN_MODULES }).toEqual({ MIN_CORES: 4, MIN_BYTES: 1_000_000, MIN_MODULES: 2 });
  });

  it("counts whole cores within the quota, at least one", () => {
    expect(usableCores(2, null)).toBe(2);
    expect(usableCores(64, 2)).toBe(2);
    expect(usableCores(8, 1.5)).toBe(1);
    expect(usableCores(8, 0.5)).toBe(1);
    expect(usableCores(4, 3.99)).toBe(3);
    expect(usableCores(2, 16)).toBe(2);
  });

  it("on 1 to 3 usable cores: the main thread for any run, without counting bytes", () => {
    for (const cores of [1, 2, 3]) {
      for (const [modules, bytes] of [
        [2, 0.04 * MB],
        [500, 11 * MB],
        [5000, 500 * MB],
      ] as const) {
        expect(decide(cores, null, modules, bytes), `${cores} cores, ${modules} modules`).toEqual({ jobs: 1, asked: false });
      }
    }
  });

  it("a cgroup quota below 4 CPUs on a large host: the main thread", () => {
    expect(decide(64, 2, 500, 11 * MB)).toEqual({ jobs: 1, asked: false });
    expect(decide(64, 3.5, 500, 11 * MB)).toEqual({ jobs: 1, asked: false });
    expect(decide(64, 4, 500, 11 * MB)).toEqual({ jobs: 3, asked: true });
    expect(decide(64, 6.5, 500, 11 * MB)).toEqual({ jobs: 5, asked: true });
  });

  it("from 4 usable cores: one worker per core but one, as far as the work feeds them", () => {
    expect(decide(4, null, 500, 11 * MB)).toEqual({ jobs: 3, asked: true });
    expect(decide(8, null, 500, 11 * MB)).toEqual({ jobs: 7, asked: true });
    expect(decide(64, null, 500, 11 * MB)).toEqual({ jobs: 11, asked: true });
    // Two modules a worker at least.
    expect(decide(16, null, 10, 100 * MB)).toEqual({ jobs: 5, asked: true });
    expect(decide(16, null, 4, 100 * MB)).toEqual({ jobs: 2, asked: true });
    // A megabyte a worker at least.
    expect(decide(16, null, 500, 2 * MB)).toEqual({ jobs: 2, asked: true });
    expect(decide(16, null, 500, 2 * MB - 1)).toEqual({ jobs: 1, asked: true });
  });

  it("too little work for two workers: the main thread", () => {
    expect(decide(16, null, 1, 100 * MB)).toEqual({ jobs: 1, asked: false });
    expect(decide(16, null, 3, 100 * MB)).toEqual({ jobs: 1, asked: false });
    expect(decide(16, null, 500, 0.9 * MB)).toEqual({ jobs: 1, asked: true });
    expect(decide(16, null, 0, 0)).toEqual({ jobs: 1, asked: false });
  });
});

describe("the cgroup's CPU quota", () => {
  it("reads cgroup v2 cpu.max", () => {
    expect(quotaOfCpuMax("max 100000\n")).toBeNull();
    expect(quotaOfCpuMax("150000 100000\n")).toBe(1.5);
    expect(quotaOfCpuMax("200000 100000")).toBe(2);
    expect(quotaOfCpuMax("400000")).toBe(4);
    expect(quotaOfCpuMax("")).toBeNull();
    expect(quotaOfCpuMax("lots of cpu")).toBeNull();
    expect(quotaOfCpuMax("100000 0")).toBeNull();
  });

  it("reads cgroup v1 cpu.cfs_quota_us and cpu.cfs_period_us", () => {
    expect(quotaOfCfs("-1\n", "100000\n")).toBeNull();
    expect(quotaOfCfs("50000\n", "100000\n")).toBe(0.5);
    expect(quotaOfCfs("300000", "100000")).toBe(3);
    expect(quotaOfCfs("", "100000")).toBeNull();
  });

  const roots: string[] = [];
  afterEach(() => {
    while (roots.length > 0) rmSync(roots.pop()!, { recursive: true, force: true });
  });
  /** A sample machine: `files` under a fake /sys/fs/cgroup, and its /proc/self/cgroup. */
  function machine(self: string, files: Record<string, string>): { root: string; self: string } {
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-cgroup-")));
    roots.push(base);
    const root = path.join(base, "sys", "fs", "cgroup");
    mkdirSync(root, { recursive: true });
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
    writeFileSync(path.join(base, "self-cgroup"), self);
    return { root, self: path.join(base, "self-cgroup") };
  }

  it("v2 in a container (its own cgroup namespace): the root's cpu.max", () => {
    expect(readCpuQuota(machine("0::/\n", { "cpu.max": "200000 100000\n" }))).toBe(2);
    expect(readCpuQuota(machine("0::/\n", { "cpu.max": "max 100000\n" }))).toBeNull();
  });

  it("v2 on a host: the smallest quota of the process's cgroup and its ancestors", () => {
    const files = { "user.slice/cpu.max": "300000 100000\n", "user.slice/app.scope/cpu.max": "max 100000\n", "cpu.stat": "usage_usec 1\n" };
    expect(readCpuQuota(machine("0::/user.slice/app.scope\n", files))).toBe(3);
    const tighter = { ...files, "user.slice/app.scope/cpu.max": "150000 100000\n" };
    expect(readCpuQuota(machine("0::/user.slice/app.scope\n", tighter))).toBe(1.5);
  });

  it("v2 where the path /proc/self/cgroup names is not under the root: the root's own file", () => {
    expect(readCpuQuota(machine("0::/docker/4f1c\n", { "cpu.max": "150000 100000\n" }))).toBe(1.5);
  });

  it("v1, as on a host without a limit (this machine's layout) and in a limited container", () => {
    const self = "9:name=systemd:/\n4:memory:/process_api/9a8d\n1:cpu:/\n0::/\n";
    expect(readCpuQuota(machine(self, { "cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n" }))).toBeNull();
    const limited = { "cpu,cpuacct/docker/ab12/cpu.cfs_quota_us": "400000\n", "cpu,cpuacct/docker/ab12/cpu.cfs_period_us": "100000\n" };
    expect(readCpuQuota(machine("4:cpu,cpuacct:/docker/ab12\n", limited))).toBe(4);
    // A quota file without its period says nothing.
    expect(readCpuQuota(machine("4:cpu,cpuacct:/\n", { "cpu,cpuacct/cpu.cfs_quota_us": "400000\n" }))).toBeNull();
  });

  it("both versions mounted: the smaller quota", () => {
    const files = { "cpu.max": "600000 100000\n", "cpu/cpu.cfs_quota_us": "250000\n", "cpu/cpu.cfs_period_us": "100000\n" };
    expect(readCpuQuota(machine("1:cpu:/\n0::/\n", files))).toBe(2.5);
  });

  it("no cgroup files (not Linux, or none mounted): no quota", () => {
    expect(readCpuQuota(machine("", {}))).toBeNull();
    expect(readCpuQuota({ root: "/nonexistent/cgroup", self: "/nonexistent/self" })).toBeNull();
  });
});

describe("the module bytes of a run", () => {
  it("are the sizes of the module files directly in each module directory", () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), "tfcapi-lint-bytes-")));
    try {
      const a = path.join(root, "a");
      const b = path.join(root, "b");
      mkdirSync(path.join(a, "modules", "child"), { recursive: true });
      mkdirSync(b);
      writeFileSync(path.join(a, "main.tf"), "x".repeat(10));
      writeFileSync(path.join(a, "gen.tf.json"), "{}");
      writeFileSync(path.join(a, "README.md"), "not a module file");
      writeFileSync(path.join(a, ".hidden.tf"), "hidden");
      writeFileSync(path.join(a, "modules", "child", "main.tf"), "its own module");
      writeFileSync(path.join(b, "override.tofu"), "x".repeat(100));
      expect(moduleBytes([a])).toBe(12);
      expect(moduleBytes([a, b, path.join(root, "missing")])).toBe(112);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
