/**
 * Every format over every fixture and example module: machine-readable
 * output parses (JSON, SARIF, XML), the counts agree across formats, and no
 * output anywhere contains `undefined`, `NaN` or `[object Object]`.
 *
 * The ~400 fixture modules run in-process through the CLI entry point
 * (`main(argv, io)`, the code bin/tfcapi-lint.js calls); the examples also
 * run through the real binary.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { main } from "../../src/cli/main.js";
import { checkXml } from "./xml-check.js";
import { REPO, runCli } from "./helpers.js";
import { moduleDir } from "../../scripts/fixture-modules.mjs";

const FORMATS = ["text", "compact", "json", "sarif", "github", "checkstyle", "junit"] as const;
const MODULE_FILE = /\.(tf|tofu)(\.json)?$/;
const BAD = /undefined|NaN|\[object Object\]/;

/** Every directory under fixtures/ and examples/ that holds module files, with the role to lint it as. */
function moduleDirs(): { dir: string; role: string }[] {
  const out: { dir: string; role: string }[] = [];
  const walk = (dir: string, role: string): void => {
    let entries = readdirSync(dir, { withFileTypes: true });
    let r = role;
    if (entries.some((e) => e.name === "expected.json")) {
      const exp = JSON.parse(readFileSync(path.join(dir, "expected.json"), "utf8")) as { role?: string; base?: string };
      if (typeof exp.role === "string") r = exp.role;
      // A case by difference: its module is built elsewhere (the same files a copy had).
      if (exp.base !== undefined) {
        dir = moduleDir(dir);
        entries = readdirSync(dir, { withFileTypes: true });
      }
    }
    if (entries.some((e) => e.isFile() && MODULE_FILE.test(e.name))) out.push({ dir, role: r });
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith(".")) walk(path.join(dir, e.name), r);
  };
  walk(path.join(REPO, "fixtures"), "machinepool");
  walk(path.join(REPO, "examples"), "machinepool");
  return out.sort((a, b) => (a.dir < b.dir ? -1 : 1));
}

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
}

async function lintInProcess(dir: string, args: string[], summaryFile: string): Promise<Captured> {
  let stdout = "";
  let stderr = "";
  rmSync(summaryFile, { force: true });
  const code = await main(args, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readStdin: async () => "",
    env: { NO_COLOR: "1", GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: REPO },
    cwd: dir,
    isTTY: false,
  });
  const summary = existsSync(summaryFile) ? readFileSync(summaryFile, "utf8") : "";
  return { code, stdout, stderr, summary };
}

interface Counts {
  findings: number;
}

/** Check one format's output; returns how many findings it shows. */
function checkOutput(format: (typeof FORMATS)[number], out: Captured, where: string): Counts {
  for (const [name, text] of [["stdout", out.stdout], ["stderr", out.stderr], ["job summary", out.summary]] as const) {
    const m = BAD.exec(text);
    expect(m, `${where} ${format} ${name}: "${m?.[0]}" in ${text.slice(Math.max(0, (m?.index ?? 0) - 80), (m?.index ?? 0) + 40)}`).toBe(null);
  }
  expect(out.stderr.includes("internal error"), `${where} ${format}: ${out.stderr}`).toBe(false);
  switch (format) {
    case "json": {
      expect(out.stdout.endsWith("\n"), where).toBe(true);
      const doc = JSON.parse(out.stdout) as { findings: unknown[]; summary: Record<string, number> };
      expect(Object.keys(doc).slice(0, 5), where).toEqual(["module", "contract", "role", "findings", "summary"]);
      for (const n of Object.values(doc.summary)) expect(Number.isInteger(n), where).toBe(true);
      return { findings: doc.findings.length };
    }
    case "sarif": {
      const sarif = JSON.parse(out.stdout) as {
        version: string;
        runs: { results: { ruleId: string; level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[];
      };
      expect(sarif.version, where).toBe("2.1.0");
      expect(sarif.runs, where).toHaveLength(1);
      for (const r of sarif.runs[0]!.results) {
        expect(typeof r.ruleId, where).toBe("string");
        expect(["error", "warning", "note"], where).toContain(r.level);
        expect(r.message.text.length, where).toBeGreaterThan(0);
        const loc = r.locations[0]!.physicalLocation;
        expect(loc.artifactLocation.uri.startsWith("/"), `${where}: ${loc.artifactLocation.uri}`).toBe(false);
        expect(loc.region.startLine, where).toBeGreaterThanOrEqual(1);
      }
      return { findings: sarif.runs[0]!.results.length };
    }
    case "checkstyle": {
      const elements = checkXml(out.stdout);
      expect(elements[0], where).toBe("checkstyle");
      return { findings: elements.filter((e) => e === "error").length };
    }
    case "junit": {
      const elements = checkXml(out.stdout);
      expect(elements[0], where).toBe("testsuites");
      return { findings: -1 };
    }
    case "compact":
      return { findings: out.stdout === "" ? 0 : out.stdout.trimEnd().split("\n").length };
    case "github": {
      // Workflow commands (capped per severity) and plain tfcapi-lint: lines
      // (totals, how many were left out), nothing else.
      for (const line of out.stdout.split("\n").filter((l) => l !== "" && !l.startsWith("tfcapi-lint: "))) {
        expect(line, where).toMatch(/^::(error|warning|notice) (file=[^,]*(,(line|col|endLine|endColumn)=\d+)*,)?title=[^:]+::.+$/);
      }
      return { findings: -1 };
    }
    case "text":
      expect(out.stdout.length, where).toBeGreaterThan(0);
      return { findings: -1 };
  }
}

describe("every format over every fixture and example module", () => {
  const dirs = moduleDirs();

  it("finds the modules (fixtures of every rule, examples, e2e)", () => {
    expect(dirs.length).toBeGreaterThan(300);
    expect(dirs.some((d) => d.dir.endsWith(path.join("examples", "broken-machinepool")))).toBe(true);
    expect(dirs.some((d) => d.dir.endsWith(path.join("e2e", "pool-nested", "modules", "node-labels")))).toBe(true);
  });

  it("parses, agrees on counts, and shows no undefined/NaN/[object Object]", async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), "tfcapi-lint-formats-"));
    const summaryFile = path.join(scratch, "summary.md");
    let checked = 0;
    try {
      for (const { dir, role } of dirs) {
        const where = path.relative(REPO, dir);
        const counts = new Map<string, number>();
        for (const format of FORMATS) {
          const out = await lintInProcess(dir, ["--role", role, "--format", format, "--report-unused-ignores", "."], summaryFile);
          expect([0, 1, 2], `${where} ${format}: exit ${out.code} ${out.stderr}`).toContain(out.code);
          const c = checkOutput(format, out, where);
          if (c.findings >= 0) counts.set(format, c.findings);
          checked++;
        }
        // JSON, SARIF, compact and checkstyle list the same findings.
        const n = counts.get("json")!;
        expect(Object.fromEntries(counts), where).toEqual({ json: n, sarif: n, compact: n, checkstyle: n });
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    expect(checked).toBe(dirs.length * FORMATS.length);
  }, 600_000);

  it("the real binary: every format, --recursive over examples/ and fixtures/e2e/", () => {
    const dirsArg = ["examples", "fixtures/e2e"];
    for (const format of FORMATS) {
      const r = runCli(["--role", "machinepool", "--recursive", "--format", format, ...dirsArg], { timeoutMs: 60_000 });
      expect(r.code, `${format}: ${r.stderr}`).toBe(1);
      expect(BAD.test(r.stdout), `${format}: ${r.stdout}`).toBe(false);
      expect(BAD.test(r.stderr), `${format}: ${r.stderr}`).toBe(false);
      if (format === "json") {
        const docs = JSON.parse(r.stdout) as { module: string }[];
        expect(Array.isArray(docs)).toBe(true);
        // pool-nested's child is reported with its parent, not on its own.
        expect(docs.map((d) => d.module)).toEqual([
          "examples/broken-machinepool",
          "examples/cluster-aws",
          "examples/machine-aws",
          "examples/machinepool-aws",
          "examples/tfcapi-lint-plugin-acme/fixtures/missing-tags",
          "examples/tfcapi-lint-plugin-acme/fixtures/tagged",
          "fixtures/e2e/machine",
          "fixtures/e2e/machine-tofu",
          "fixtures/e2e/pool-nested",
          "fixtures/e2e/pool-tofu",
        ]);
      }
      if (format === "sarif") expect((JSON.parse(r.stdout) as { version: string }).version).toBe("2.1.0");
      if (format === "checkstyle" || format === "junit") checkXml(r.stdout);
    }
    expect(statSync(path.join(REPO, "fixtures", "e2e")).isDirectory()).toBe(true);
  }, 120_000);
});
