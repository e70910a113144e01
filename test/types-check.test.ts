/**
 * src/validator/item/types.check.ts makes tsc fail when the hand-written item types and the schema drift
 * apart. This test proves it: src/ is copied to a temporary directory (with tsconfig.json,
 * package.json and a node_modules symlink), one deliberate drift at a time is written into the copy's
 * src/validator/item/types.ts, and tsc must fail on types.check.ts, at the assertion of the drifted part;
 * the unmodified copy must compile. The real tree is never touched.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TSC = path.join(root, "node_modules/typescript/bin/tsc");
const TYPES = path.join("src", "validator", "item", "types.ts");
const CHECK = path.join("src", "validator", "item", "types.check.ts");
/** Four tsc runs of the check alone take seconds on an idle machine; raise this on a slow or busy one. */
const TIMEOUT_MS = Number(process.env.TYPES_CHECK_TIMEOUT_MS ?? 300_000);

interface Drift {
  name: string;
  from: string;
  to: string;
  /** Assertions (exported alias names in types.check.ts) that must fail. */
  names: string[];
}

const DRIFTS: Drift[] = [
  {
    name: '"mlm:framework" also accepts "JAX"',
    from: 'export type MlmFramework = "PyTorch" | "TensorFlow";',
    to: 'export type MlmFramework = "PyTorch" | "TensorFlow" | "JAX";',
    names: ["_ItemAgrees", "_PropertiesAgree"],
  },
  {
    name: "split spec seed is a string",
    from: "  seed: number;",
    to: "  seed: string;",
    names: ["_ItemAgrees", "_PropertiesAgree", "_SplitSpecAgrees"],
  },
  {
    name: 'required "mlm:pretrained" dropped',
    from: '  "mlm:pretrained": boolean;\n',
    to: "",
    names: ["_ItemAgrees", "_PropertiesAgree", "_PropertiesMembers"],
  },
];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A throwaway copy of the compilation: src/, tsconfig.json, package.json and a link to node_modules. */
function copyProject(edit?: Drift): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "basemodel-types-check-"));
  dirs.push(dir);
  cpSync(path.join(root, "src"), path.join(dir, "src"), { recursive: true });
  // Only the check and what it imports: the rest of src/ (the server, with fastify's heavy
  // types) has nothing to do with it and would multiply the time of each of the four runs.
  const tsconfig = JSON.parse(readFileSync(path.join(root, "tsconfig.json"), "utf8"));
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ ...tsconfig, include: [CHECK.split(path.sep).join("/")] }));
  // "type": "module": without it, NodeNext reads src/ as CommonJS and import.meta is an error.
  cpSync(path.join(root, "package.json"), path.join(dir, "package.json"));
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  if (edit) {
    const file = path.join(dir, TYPES);
    const text = readFileSync(file, "utf8");
    // The drift must apply exactly once, or the test would prove nothing.
    expect(text.split(edit.from).length - 1, `${edit.name}: ${JSON.stringify(edit.from)} in types.ts`).toBe(1);
    writeFileSync(file, text.replace(edit.from, edit.to));
  }
  return dir;
}

function tsc(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, "--noEmit", "--pretty", "false", "-p", path.join(dir, "tsconfig.json")], { cwd: dir, maxBuffer: 16 << 20, timeout: TIMEOUT_MS - 5_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      const killed = error?.killed ? `\n(tsc was stopped after ${TIMEOUT_MS - 5_000} ms)` : "";
      resolve({ code, output: `${stdout}${stderr}${killed}` });
    });
  });
}

/** The exported alias names of types.check.ts at which tsc reported an error. */
function failedAssertions(dir: string, output: string): string[] {
  const lines = readFileSync(path.join(dir, CHECK), "utf8").split("\n");
  const at = /types\.check\.ts\((\d+),\d+\): error/g;
  const names = new Set<string>();
  for (const match of output.matchAll(at)) {
    const line = lines[Number(match[1]) - 1] ?? "";
    const name = /export type (\w+)/.exec(line)?.[1];
    names.add(name ?? `line ${match[1]}: ${line.trim()}`);
  }
  return [...names].sort();
}

describe("types.check.ts fails the build when the item types drift from the schema", () => {
  it(
    "compiles unchanged and fails, naming the part, for each drift",
    async () => {
      // One tsc run takes seconds: run the four side by side.
      const runs = await Promise.all([undefined, ...DRIFTS].map(async (drift) => {
        const dir = copyProject(drift);
        return { drift, dir, ...(await tsc(dir)) };
      }));

      const [unchanged, ...drifted] = runs;
      expect(unchanged!.output.trim(), "tsc on the unmodified copy").toBe("");
      expect(unchanged!.code).toBe(0);

      for (const { drift, dir, code, output } of drifted) {
        expect(code, `${drift!.name}: tsc must fail\n${output}`).not.toBe(0);
        const failed = failedAssertions(dir, output);
        for (const name of drift!.names) expect(failed, `${drift!.name}\n${output}`).toContain(name);
      }
    },
    TIMEOUT_MS,
  );
});
