/**
 * The GitHub Action: action.yml's wiring (read with a small YAML reader) and
 * its run script, scripts/action-run.mjs, executed the way the runner does it:
 * INPUT_* variables, GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and
 * GITHUB_ACTION_PATH pointing at this checkout. What the script prints, writes
 * and returns is compared with direct runs of the CLI on the same modules.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseYaml, type Yaml } from "./mini-yaml.js";
import { cleanEnv, cleanup, copyFromRoot, ensureBuilt, ROOT, run, runCli, tempDir, type Run } from "./helpers.js";

type Map = { [key: string]: Yaml };
const action = parseYaml(readFileSync(path.join(ROOT, "action.yml"), "utf8")) as Map;
const inputs = action.inputs as { [name: string]: Map };
const outputs = action.outputs as { [name: string]: Map };
const steps = (action.runs as Map).steps as Map[];

describe("action.yml", () => {
  it("is a composite action with the documented inputs and defaults", () => {
    expect((action.runs as Map).using).toBe("composite");
    expect(Object.keys(inputs)).toEqual([
      "path", "role", "recursive", "format", "fail-on", "config", "sarif-file", "version", "args", "baseline",
      // the Go tfcapi-lint action's inputs
      "command", "target", "strict", "allow-warnings", "contract", "platform", "all-platforms", "insecure", "json",
    ]);
    expect(inputs.path!.default).toBe(".");
    expect(inputs.format!.default).toBe("github");
    expect(inputs.recursive!.default).toBe("false");
    for (const [name, input] of Object.entries(inputs)) {
      expect(typeof input.description === "string" && input.description.length > 10, name).toBe(true);
      expect(input.required, name).toBe("false");
    }
  });

  it("passes every input to the run script and exposes its outputs", () => {
    const lint = steps.find((s) => s.id === "lint")!;
    expect(lint.shell).toBe("bash");
    expect(lint.run).toBe('node "$GITHUB_ACTION_PATH/scripts/action-run.mjs"');
    const env = lint.env as { [k: string]: string };
    for (const name of Object.keys(inputs)) {
      expect(env[`INPUT_${name.toUpperCase().replace(/-/g, "_")}`], name).toBe(`\${{ inputs.${name} }}`);
    }
    expect(Object.keys(env).length).toBe(Object.keys(inputs).length);
    expect(Object.keys(outputs)).toEqual(["findings", "errors", "warnings", "notices", "baselined", "modules", "sarif-file", "exit-code"]);
    for (const name of Object.keys(outputs)) {
      expect(outputs[name]!.value, name).toBe(`\${{ steps.lint.outputs.${name} }}`);
    }
  });

  it("always builds the bundled CLI in the action directory when it is not built (no version is fetched by name)", () => {
    const setup = steps[0]!;
    expect(setup.if).toBeUndefined();
    expect(setup["working-directory"]).toBe("${{ github.action_path }}");
    expect(setup.run).toBe("if [ ! -f dist/cli.js ]; then\n  npm ci --no-audit --no-fund\n  npm run build\nfi\n");
    expect(steps.map((s) => s.name)).toEqual(["Build the bundled tfcapi-lint", "Run tfcapi-lint"]);
    expect(readFileSync(path.join(ROOT, "action.yml"), "utf8")).not.toContain("npx");
    expect(readFileSync(path.join(ROOT, "scripts", "action-run.mjs"), "utf8")).not.toMatch(/\bnpx\b/);
  });
});

describe("scripts/action-run.mjs", () => {
  let ws: string | undefined;
  const SCRIPT = path.join(ROOT, "scripts", "action-run.mjs");

  beforeAll(() => {
    ensureBuilt();
    ws = tempDir("action");
    mkdirSync(path.join(ws, ".git"));
    copyFromRoot("examples/broken-machinepool", path.join(ws, "modules", "broken"));
    copyFromRoot("examples/machinepool-aws", path.join(ws, "modules", "pool"));
    copyFromRoot("examples/cluster-aws", path.join(ws, "cluster"));
    copyFromRoot("fixtures/skeletons/cluster", path.join(ws, "skeleton"));
  });
  afterAll(() => cleanup(ws));

  interface ActionRun extends Run {
    outputs: Record<string, string>;
    summary: string;
  }

  let counter = 0;
  function runAction(inputsEnv: Record<string, string>, extraEnv: Record<string, string> = {}): ActionRun {
    counter++;
    const outFile = path.join(ws!, `.out-${counter}`);
    const summaryFile = path.join(ws!, `.summary-${counter}`);
    writeFileSync(outFile, "");
    writeFileSync(summaryFile, "");
    const env = cleanEnv({
      GITHUB_ACTIONS: "true",
      GITHUB_WORKSPACE: ws,
      GITHUB_OUTPUT: outFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTION_PATH: ROOT,
      RUNNER_TEMP: ws,
      ...inputsEnv,
      ...extraEnv,
    });
    const r = run(process.execPath, [SCRIPT], { cwd: ROOT, env });
    const outputs: Record<string, string> = {};
    for (const line of readFileSync(outFile, "utf8").split("\n")) {
      const eq = line.indexOf("=");
      if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
    }
    return { ...r, outputs, summary: readFileSync(summaryFile, "utf8") };
  }

  /** The CLI run directly in the workspace, as the script should run it. */
  function direct(args: string[]): Run & { summary: string } {
    counter++;
    const summaryFile = path.join(ws!, `.direct-summary-${counter}`);
    writeFileSync(summaryFile, "");
    const r = runCli(args, { cwd: ws!, env: cleanEnv({ GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: ws, GITHUB_STEP_SUMMARY: summaryFile }) });
    return { ...r, summary: readFileSync(summaryFile, "utf8") };
  }

  /** The step's outputs for these counts, with the rest given. */
  function outputsOf(c: { error: number; warning: number; info: number }, rest: { modules: string; "sarif-file": string; "exit-code": string; baselined?: string }): Record<string, string> {
    return { findings: String(c.error + c.warning + c.info), errors: String(c.error), warnings: String(c.warning), notices: String(c.info), baselined: "0", ...rest };
  }

  function counts(paths: string[]): { error: number; warning: number; info: number } {
    const docs = ([] as { summary: { error: number; warning: number; info: number } }[]).concat(JSON.parse(direct(["--format", "json", ...paths]).stdout));
    return docs.reduce((s, d) => ({ error: s.error + d.summary.error, warning: s.warning + d.summary.warning, info: s.info + d.summary.info }), { error: 0, warning: 0, info: 0 });
  }

  it("annotates a broken module, writes the summary, SARIF and outputs, and fails", () => {
    const r = runAction({ INPUT_PATH: "modules/broken\nmodules/pool\n", INPUT_SARIF_FILE: "reports/tfcapi-lint.sarif" });
    const expected = direct(["--format", "github", "modules/broken", "modules/pool"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(expected.stdout);
    expect(r.stdout).toMatch(/^::error file=modules\/broken\/versions\.tf,line=5,col=3,endLine=5,endColumn=15,title=module\/backend::/m);
    expect(r.summary).toBe(expected.summary);
    expect(r.summary).toContain("## tfcapi-lint");
    const c = counts(["modules/broken", "modules/pool"]);
    expect(c.error).toBeGreaterThan(0);
    expect(r.outputs).toEqual(outputsOf(c, { modules: "2", "sarif-file": "reports/tfcapi-lint.sarif", "exit-code": "1" }));
    const sarif = readFileSync(path.join(ws!, "reports", "tfcapi-lint.sarif"), "utf8");
    expect(sarif).toBe(direct(["--format", "sarif", "modules/broken", "modules/pool"]).stdout);
    expect((JSON.parse(sarif) as { runs: { results: unknown[] }[] }).runs[0]!.results.length).toBe(c.error + c.warning + c.info);
  });

  it("passes on clean modules, even with fail-on warning, and writes no SARIF unless asked", () => {
    const r = runAction({ INPUT_PATH: "modules/pool cluster", "INPUT_FAIL_ON": "warning" });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(direct(["--format", "github", "modules/pool", "cluster"]).stdout);
    expect(r.stdout).not.toContain("::error");
    expect(r.stdout).not.toContain("::warning");
    expect(r.outputs).toEqual({ findings: "0", errors: "0", warnings: "0", notices: "0", baselined: "0", modules: "2", "sarif-file": "", "exit-code": "0" });
    expect(existsSync(path.join(ws!, "reports", "none.sarif"))).toBe(false);
  });

  it("applies the fail-on threshold: never passes a broken module, warning fails on warnings alone", () => {
    const never = runAction({ INPUT_PATH: "modules/broken", INPUT_FAIL_ON: "never" });
    expect(never.code).toBe(0);
    expect(never.outputs["exit-code"]).toBe("1");
    // Only the warnings of the broken module: every error rule turned off.
    const errorRules = JSON.parse(direct(["--format", "json", "modules/broken"]).stdout).findings
      .filter((f: { severity: string }) => f.severity === "error")
      .map((f: { id: string }) => `--rule ${f.id}=off`);
    const args = [...new Set<string>(errorRules)].join(" ");
    const warnOnly = runAction({ INPUT_PATH: "modules/broken", INPUT_ARGS: args });
    expect(warnOnly.outputs.errors).toBe("0");
    expect(Number(warnOnly.outputs.warnings)).toBeGreaterThan(0);
    expect(warnOnly.code).toBe(0);
    expect(runAction({ INPUT_PATH: "modules/broken", INPUT_ARGS: args, INPUT_FAIL_ON: "warning" }).code).toBe(1);
    expect(runAction({ INPUT_PATH: "modules/broken", INPUT_ARGS: args, INPUT_FAIL_ON: "error" }).code).toBe(0);
  });

  it("fails on info findings only with fail-on info", () => {
    // The contract's cluster skeleton has no required_version: one info finding.
    const c = counts(["skeleton"]);
    expect(c).toEqual({ error: 0, warning: 0, info: 1 });
    const info = runAction({ INPUT_PATH: "skeleton", INPUT_FAIL_ON: "info" });
    expect(info.code).toBe(1);
    expect(info.outputs.notices).toBe("1");
    expect(info.stdout).toMatch(/^::notice title=module\/version::skeleton: /m);
    expect(runAction({ INPUT_PATH: "skeleton", INPUT_FAIL_ON: "warning" }).code).toBe(0);
    expect(runAction({ INPUT_PATH: "skeleton" }).code).toBe(0);
  });

  it("lints recursively with a role, in another format", () => {
    const r = runAction({ INPUT_PATH: "modules", INPUT_RECURSIVE: "true", INPUT_ROLE: "machinepool", INPUT_FORMAT: "compact" });
    const expected = direct(["--recursive", "--role", "machinepool", "--format", "compact", "modules"]);
    expect(r.stdout).toBe(expected.stdout);
    expect(r.code).toBe(expected.code);
    expect(r.outputs.modules).toBe("2");
    expect(r.summary).toBe("");
  });

  const OWN_VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

  /** An npx on PATH that only records that it ran (the action must never run it). */
  function trapNpx(): { env: Record<string, string>; ran: () => boolean } {
    const bin = path.join(ws!, `npx-trap-${++counter}`);
    mkdirSync(bin, { recursive: true });
    const log = path.join(bin, "ran.log");
    writeFileSync(path.join(bin, "npx"), `#!/usr/bin/env bash\necho "$@" >> "${log}"\nexit 0\n`);
    chmodSync(path.join(bin, "npx"), 0o755);
    return { env: { PATH: `${bin}:${process.env.PATH}` }, ran: () => existsSync(log) };
  }

  it("runs its own checkout whatever version says: the checkout's version (with or without v) runs it, any other is an input error", () => {
    const npx = trapNpx();
    for (const version of [OWN_VERSION, `v${OWN_VERSION}`, "bundled"]) {
      const r = runAction({ INPUT_PATH: "modules/pool", INPUT_VERSION: version }, npx.env);
      expect(r.code, version).toBe(0);
      expect(r.outputs.modules, version).toBe("1");
    }
    const other = runAction({ INPUT_PATH: "modules/pool", INPUT_VERSION: "9.9.9" }, npx.env);
    expect(other.code).toBe(3);
    expect(other.stdout).toBe(
      `::error title=tfcapi-lint action::version: "9.9.9" is not this action's version (${OWN_VERSION}): the action runs only its own checkout and fetches nothing by name; ` +
        "choose the version with the ref in uses: (for example captf-io/tfcapi-lint@<tag or commit>) and leave version empty\n",
    );
    expect(other.outputs).toEqual({});
    expect(npx.ran()).toBe(false);
  });

  /**
   * An action checkout whose bin/tfcapi-lint.js logs each run's arguments
   * (one JSON line each), then runs this checkout's CLI (or, with `exitOnly`,
   * exits with that code and writes nothing).
   */
  function fakeAction(exitOnly?: number): { env: Record<string, string>; runs: () => string[][] } {
    const dir = path.join(ws!, `fake-action-${++counter}`);
    mkdirSync(path.join(dir, "dist"), { recursive: true });
    mkdirSync(path.join(dir, "bin"), { recursive: true });
    writeFileSync(path.join(dir, "dist", "cli.js"), "");
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "tfcapi-lint", version: OWN_VERSION }));
    const log = path.join(dir, "runs.log");
    writeFileSync(log, "");
    writeFileSync(
      path.join(dir, "bin", "tfcapi-lint.js"),
      `const fs = require("fs");\nfs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)) + "\\n");\n` +
        (exitOnly !== undefined
          ? `process.exit(${exitOnly});\n`
          : `const r = require("child_process").spawnSync(process.execPath, [${JSON.stringify(path.join(ROOT, "bin", "tfcapi-lint.js"))}, ...process.argv.slice(2)], { stdio: "inherit" });\n` +
            "process.exit(r.status ?? 2);\n"),
    );
    return {
      env: { GITHUB_ACTION_PATH: dir },
      runs: () => readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as string[]),
    };
  }

  /** The argument list of a run, with the temporary JSON report path made stable. */
  function stable(args: string[]): string[] {
    return args.map((a) => a.replace(/^json=.*\/report\.json$/, "json=REPORT"));
  }

  /** examples/broken-machinepool's options that turn every error rule off: warnings only. */
  function warningsOnlyArgs(): string {
    const errorRules = JSON.parse(direct(["--format", "json", "modules/broken"]).stdout).findings
      .filter((f: { severity: string }) => f.severity === "error")
      .map((f: { id: string }) => `--rule ${f.id}=off`);
    return [...new Set<string>(errorRules)].join(" ");
  }

  it("counts every finding whatever -q, --quiet, --format or -o in args say, and fails on hidden warnings with fail-on warning", () => {
    const warnOnly = warningsOnlyArgs();
    const all = counts(["modules/broken", ...warnOnly.split(" ")]);
    expect(all.error).toBe(0);
    expect(all.warning).toBeGreaterThan(0);
    const expected = outputsOf(all, { modules: "1", "sarif-file": "", "exit-code": "1" });
    for (const extra of ["-q", "--quiet", "-q --format json", "-q -o quiet-log.txt", "--format compact -q"]) {
      const r = runAction({ INPUT_PATH: "modules/broken", INPUT_ARGS: `${warnOnly} --strict ${extra}`, INPUT_FAIL_ON: "warning" });
      expect(r.code, extra).toBe(1);
      expect(r.outputs, extra).toEqual(expected);
    }
    // The log still honours -q: no warning annotation, as the CLI prints it.
    const quiet = runAction({ INPUT_PATH: "modules/broken", INPUT_ARGS: `${warnOnly} -q`, INPUT_FAIL_ON: "warning" });
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toBe(direct([...warnOnly.split(" "), "-q", "--format", "github", "modules/broken"]).stdout);
    expect(quiet.stdout).not.toContain("::warning");
    expect(quiet.outputs).toEqual(outputsOf(all, { modules: "1", "sarif-file": "", "exit-code": "0" }));
    // fail-on error passes it; the counts are the same.
    const errorOnly = runAction({ INPUT_PATH: "modules/broken", INPUT_ARGS: `${warnOnly} -q`, INPUT_FAIL_ON: "error" });
    expect(errorOnly.code).toBe(0);
    expect(errorOnly.outputs.warnings).toBe(String(all.warning));
  });

  it("runs the CLI once per step, with the log format, the JSON counts and the SARIF file from that one run", () => {
    const action = fakeAction();
    const r = runAction({ INPUT_PATH: "modules/broken", INPUT_SARIF_FILE: "out/one.sarif", ...action.env });
    expect(action.runs().map(stable)).toEqual([
      ["--format", "github", "--also-write", "sarif=out/one.sarif", "--full-report", "json=REPORT", "--", "modules/broken"],
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(direct(["--format", "github", "modules/broken"]).stdout);
    expect(readFileSync(path.join(ws!, "out", "one.sarif"), "utf8")).toBe(direct(["--format", "sarif", "modules/broken"]).stdout);
  });

  it("takes a baseline: known findings neither annotate nor fail the step; the outputs and the job summary count them apart", () => {
    const made = direct(["--update-baseline", "--baseline", "baselines/broken.json", "--format", "json", "modules/broken"]);
    expect(made.code).toBe(0);
    const known = (JSON.parse(made.stdout) as { baselined: unknown[] }).baselined.length;
    expect(known).toBeGreaterThan(10);
    const r = runAction({ INPUT_PATH: "modules/broken", INPUT_BASELINE: "baselines/broken.json", INPUT_FAIL_ON: "warning" });
    const expected = direct(["--baseline", "baselines/broken.json", "--format", "github", "modules/broken"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
    expect(r.stdout).not.toContain("::error");
    expect(r.stdout).not.toContain("::warning");
    expect(r.summary).toBe(expected.summary);
    expect(r.summary).toContain(`0 errors, 0 warnings, 0 info; ${known} findings in the baseline.`);
    expect(r.outputs).toEqual(outputsOf({ error: 0, warning: 0, info: 0 }, { baselined: String(known), modules: "1", "sarif-file": "", "exit-code": "0" }));
    // "none" uses no baseline: every finding is new again.
    const none = runAction({ INPUT_PATH: "modules/broken", INPUT_BASELINE: "none" });
    expect(none.code).toBe(1);
    expect(none.outputs).toEqual(outputsOf(counts(["modules/broken"]), { modules: "1", "sarif-file": "", "exit-code": "1" }));
    const image = runAction({ INPUT_COMMAND: "image", INPUT_TARGET: "oci:img", INPUT_BASELINE: "baselines/broken.json" });
    expect(image.code).toBe(3);
    expect(image.stdout).toBe("::error title=tfcapi-lint action::baseline is not used with command: image\n");
  });

  it("writes exactly the outputs action.yml declares", () => {
    const r = runAction({ INPUT_PATH: "modules/pool" });
    expect(Object.keys(r.outputs).sort()).toEqual(Object.keys(outputs).sort());
  });

  it("keeps paths with spaces, in a workspace and an action path with spaces", () => {
    const spaced = path.join(ws!, "my work space");
    copyFromRoot("examples/machinepool-aws", path.join(spaced, "pool one"));
    copyFromRoot("examples/broken-machinepool", path.join(spaced, "it's broken"));
    mkdirSync(path.join(spaced, ".git"), { recursive: true });
    const actionPath = path.join(ws!, "action checkout");
    if (!existsSync(actionPath)) symlinkSync(ROOT, actionPath);
    const r = runAction(
      { INPUT_PATH: `"pool one"\n"it's broken"\n`, INPUT_SARIF_FILE: "reports dir/x y.sarif" },
      { GITHUB_WORKSPACE: spaced, GITHUB_ACTION_PATH: actionPath },
    );
    const expected = runCli(["--format", "github", "pool one", "it's broken"], {
      cwd: spaced,
      env: cleanEnv({ GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: spaced }),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(expected.stdout);
    expect(r.stdout).toContain("file=it's broken/versions.tf");
    expect(r.outputs.modules).toBe("2");
    expect(existsSync(path.join(spaced, "reports dir", "x y.sarif"))).toBe(true);
  });

  it("takes multi-line args with quotes as separate arguments", () => {
    const action = fakeAction();
    const args = "--rule module/backend=off\n--rule 'module/provider-config=off'\n  --allow-warning \"pool/autoscaling-ignore-changes\"\n";
    const r = runAction({ INPUT_PATH: "modules/broken", INPUT_ARGS: args, ...action.env });
    expect(stable(action.runs()[0]!)).toEqual([
      "--rule", "module/backend=off", "--rule", "module/provider-config=off", "--allow-warning", "pool/autoscaling-ignore-changes",
      "--format", "github", "--full-report", "json=REPORT", "--", "modules/broken",
    ]);
    const expected = direct(["--rule", "module/backend=off", "--rule", "module/provider-config=off", "--allow-warning", "pool/autoscaling-ignore-changes", "--format", "github", "modules/broken"]);
    expect(r.stdout).toBe(expected.stdout);
    expect(r.stdout).not.toContain("title=module/backend");
    expect(r.code).toBe(expected.code);
  });

  it("accepts the Go action's inputs for command: module", () => {
    const action = fakeAction();
    const r = runAction(
      {
        INPUT_COMMAND: "module",
        INPUT_TARGET: "modules/pool",
        INPUT_ROLE: "machinepool",
        INPUT_STRICT: "true",
        INPUT_ALLOW_WARNINGS: "pool/autoscaling-ignore-changes, input/default\noutput/health",
        INPUT_CONTRACT: "v1alpha1",
        INPUT_ARGS: "--max-warnings 3",
        ...action.env,
      },
    );
    const args = [
      "module", "--role", "machinepool", "--contract", "v1alpha1", "--strict",
      "--allow-warning", "pool/autoscaling-ignore-changes", "--allow-warning", "input/default", "--allow-warning", "output/health",
      "--max-warnings", "3", "--format", "github",
    ];
    expect(action.runs().map(stable)).toEqual([[...args, "--full-report", "json=REPORT", "--", "modules/pool"]]);
    const expected = direct([...args, "modules/pool"]);
    expect(r.code).toBe(expected.code);
    expect(r.stdout).toBe(expected.stdout);
    expect(r.outputs.modules).toBe("1");
  });

  it("prints the JSON report with json: true, and fails warnings with strict: true", () => {
    const jsonRun = runAction({ INPUT_COMMAND: "module", INPUT_TARGET: "skeleton", INPUT_JSON: "true" });
    expect(jsonRun.stdout).toBe(direct(["module", "--format", "json", "skeleton"]).stdout);
    expect(JSON.parse(jsonRun.stdout).summary).toEqual({ error: 0, warning: 0, info: 1 });
    expect(jsonRun.code).toBe(0);
    // Only the warnings of the broken module: every error rule turned off.
    const errorRules = JSON.parse(direct(["--format", "json", "modules/broken"]).stdout).findings
      .filter((f: { severity: string }) => f.severity === "error")
      .map((f: { id: string }) => `--rule ${f.id}=off`);
    const args = [...new Set<string>(errorRules)].join(" ");
    expect(runAction({ INPUT_COMMAND: "module", INPUT_TARGET: "modules/broken", INPUT_ARGS: args }).code).toBe(0);
    const strict = runAction({ INPUT_COMMAND: "module", INPUT_TARGET: "modules/broken", INPUT_ARGS: args, INPUT_STRICT: "true" });
    expect(strict.code).toBe(1);
    expect(strict.outputs["exit-code"]).toBe("1");
  });

  it("builds the image command's arguments from the Go action's inputs", () => {
    const action = fakeAction();
    runAction({
      INPUT_COMMAND: "image",
      INPUT_TARGET: "oci:build/my image",
      INPUT_ROLE: "machine",
      INPUT_STRICT: "true",
      INPUT_ALLOW_WARNINGS: "pool/autoscaling-ignore-changes",
      INPUT_PLATFORM: "linux/arm64",
      INPUT_INSECURE: "true",
      INPUT_JSON: "true",
      ...action.env,
    });
    runAction({ INPUT_COMMAND: "image", INPUT_TARGET: "oci:build/other", INPUT_ALL_PLATFORMS: "true", ...action.env });
    expect(action.runs().map(stable)).toEqual([
      [
        "image", "--role", "machine", "--strict", "--allow-warning", "pool/autoscaling-ignore-changes",
        "--platform", "linux/arm64", "--insecure", "--format", "json", "--full-report", "json=REPORT", "--", "oci:build/my image",
      ],
      ["image", "--all-platforms", "--format", "github", "--full-report", "json=REPORT", "--", "oci:build/other"],
    ]);
  });

  it.each([
    [{ INPUT_COMMAND: "plan" }, 'command must be module or image, got "plan"'],
    [{ INPUT_PLATFORM: "linux/amd64" }, "platform is only for command: image"],
    [{ INPUT_COMMAND: "module", INPUT_INSECURE: "true" }, "insecure is only for command: image"],
    [{ INPUT_COMMAND: "image" }, "command: image needs target (oci:DIR or a registry reference)"],
    [{ INPUT_COMMAND: "image", INPUT_TARGET: "oci:x", INPUT_PLATFORM: "linux/amd64", INPUT_ALL_PLATFORMS: "true" }, "set either platform or all-platforms, not both"],
    [{ INPUT_COMMAND: "module", INPUT_PATH: "a b" }, "command: module lints one directory, got 2"],
    [{ INPUT_TARGET: "modules/pool", INPUT_PATH: "cluster" }, "use either target or path, not both"],
    [{ INPUT_STRICT: "yes please" }, 'strict must be true or false, got "yes please"'],
    [{ INPUT_ARGS: "--rule 'input/default=off" }, "args: a single quote is not closed"],
    [{ INPUT_JSON: "true", INPUT_FORMAT: "sarif" }, "json: true conflicts with format: sarif"],
  ])("rejects %j", (inputsEnv, message) => {
    const r = runAction({ INPUT_PATH: "modules/pool", ...inputsEnv });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(`::error title=tfcapi-lint action::${message}\n`);
    expect(r.outputs).toEqual({});
  });

  it("stops with exit code 2, without outputs, when the CLI leaves no JSON report", () => {
    const silent = fakeAction(0);
    const r = runAction({ INPUT_PATH: "modules/pool" }, silent.env);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^::error title=tfcapi-lint action::cannot read the JSON report of the run \(ENOENT: [^\n]*\)\n$/);
    expect(r.outputs).toEqual({});
  });

  it("rejects bad inputs with an error annotation and exit code 3", () => {
    const bad = runAction({ INPUT_PATH: "modules/pool", INPUT_FAIL_ON: "sometimes" });
    expect(bad.code).toBe(3);
    expect(bad.stdout).toBe('::error title=tfcapi-lint action::fail-on must be error, warning, info or never, got "sometimes"\n');
    const rec = runAction({ INPUT_PATH: "modules/pool", INPUT_RECURSIVE: "maybe" });
    expect(rec.code).toBe(3);
    expect(rec.stdout).toBe('::error title=tfcapi-lint action::recursive must be true or false, got "maybe"\n');
    expect(bad.outputs).toEqual({});
  });

  it("stops with exit code 2 when a path cannot be read", () => {
    const r = runAction({ INPUT_PATH: "does/not/exist" });
    expect(r.code).toBe(2);
    // The report's own annotation of the read error, then the action's.
    expect(r.stdout).toBe(
      "::error file=does/not/exist,title=tfcapi-lint read error::does/not/exist: no such file or directory\n" +
        "::error title=tfcapi-lint action::tfcapi-lint could not lint does/not/exist (exit 2)\n",
    );
    expect(r.stderr).toBe(direct(["--format", "json", "does/not/exist"]).stderr);
    // Its outputs still say what happened: the exit code, and counts of what was read (nothing).
    expect(r.outputs).toEqual({ findings: "0", errors: "0", warnings: "0", notices: "0", baselined: "0", modules: "0", "sarif-file": "", "exit-code": "2" });
  });

  it("with one path unreadable, the outputs count the modules that were read, and the SARIF file is there", () => {
    const r = runAction({ INPUT_PATH: "modules/broken\ndoes/not/exist", INPUT_SARIF_FILE: "reports/partial.sarif" });
    expect(r.code).toBe(2);
    expect(r.stdout.endsWith("::error title=tfcapi-lint action::tfcapi-lint could not lint modules/broken does/not/exist (exit 2)\n")).toBe(true);
    const c = counts(["modules/broken"]);
    expect(c.error).toBeGreaterThan(0);
    expect(r.outputs).toEqual(outputsOf(c, { modules: "1", "sarif-file": "reports/partial.sarif", "exit-code": "2" }));
    expect(existsSync(path.join(ws!, "reports", "partial.sarif"))).toBe(true);
  });

  it("says how to build when the bundled CLI is missing", () => {
    const empty = path.join(ws!, "unbuilt-action");
    mkdirSync(empty, { recursive: true });
    const r = runAction({ INPUT_PATH: "modules/pool" }, { GITHUB_ACTION_PATH: empty });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(
      `::error title=tfcapi-lint action::the bundled CLI is not built (${empty}/dist/cli.js is missing): run npm ci && npm run build in the action directory\n`,
    );
  });
});
