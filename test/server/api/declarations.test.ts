/**
 * `basemodel/api`'s published declarations stand alone. The wire types are read from the schemas
 * by json-schema-to-ts, a devDependency, and the build writes them out as plain types
 * (scripts/wire-types.mjs). Here a consumer that has the package's declarations and nothing else
 * compiles against them with every check on (skipLibCheck off), and finds real types, not `any`;
 * a control shows that one declaration needing json-schema-to-ts would fail it. Run `npm run build` first.
 */
import { execFile } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");
/** Two tsc runs of a few seconds each on an idle machine; more on a busy one. */
const TIMEOUT_MS = 300_000;

const CONSUMER = `
import type { CustomSnapshotParams, ExportArea, RawFeatureCollection, RawQuery, SnapshotParams, SnapshotParamsPlain, StatusResponse, TaskStatus } from "basemodel/api";
import { schemas } from "basemodel/api";

const polygon = { type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } as const;
const area: ExportArea = { type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } };
export const requests: [SnapshotParams, SnapshotParamsPlain, CustomSnapshotParams, RawQuery] = [
  { geometry: area, filters: { tags: { allGeometry: { joinOr: { building: [] } }, point: { shop: ["bakery"] } } }, useStWithin: "false" },
  { bbox: [0, 0, 1, 1], where: [{ key: "building", value: ["*"] }], geometryType: "polygon" },
  { geometry: { type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }, categories: [{ Buildings: { types: ["polygons"], select: ["name"], where: "tags['building'] IS NOT NULL", formats: ["geojson"] } }] },
  { area: null, status: "badgeom", orderBy: "id" },
];
export const status: StatusResponse = { lastUpdated: "2025-01-01 21:21:00+00:00" };
export const ids: string[] = schemas.map((schema) => schema.$id);

export function sizeOf(task: TaskStatus): number | undefined {
  return task.result !== null && "zipFileSizeBytes" in task.result ? task.result.zipFileSizeBytes : undefined;
}
export function tagsOf(page: RawFeatureCollection): Array<Record<string, string>> {
  return page.features.map((feature) => feature.properties.tags);
}

// @ts-expect-error: lastUpdated is text
export const wrongStatus: StatusResponse = { lastUpdated: 1 };
// @ts-expect-error: a member RawQuery does not name
export const typo: RawQuery = { pageSise: 10 };
// @ts-expect-error: not an output type
export const wrongFormat: SnapshotParams = { geometry: polygon, outputType: "xlsx" };
`;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A consumer in a directory of its own, outside the project: basemodel's package.json and declarations in its node_modules, nothing more. */
function consumer(): { dir: string; dist: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "basemodel-api-consumer-"));
  dirs.push(dir);
  const installed = path.join(dir, "node_modules", "basemodel");
  mkdirSync(installed, { recursive: true });
  cpSync(path.join(ROOT, "package.json"), path.join(installed, "package.json"));
  const dist = path.join(installed, "dist");
  cpSync(path.join(ROOT, "dist"), dist, { recursive: true, filter: (source) => !source.endsWith(".js") && !source.endsWith(".map") });
  writeFileSync(path.join(dir, "consumer.ts"), CONSUMER);
  const compilerOptions = { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023"], types: [], noEmit: true, skipLibCheck: false };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.ts"] }));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  return { dir, dist };
}

function tsc(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, "--pretty", "false", "-p", path.join(dir, "tsconfig.json")], { cwd: dir, maxBuffer: 16 << 20, timeout: TIMEOUT_MS - 5_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe("basemodel/api's declarations", () => {
  it(
    "compile for a consumer without json-schema-to-ts, as real types; one declaration that needs it would not",
    async () => {
      const alone = consumer();
      const leaking = consumer();
      appendFileSync(path.join(leaking.dist, "server", "api", "status.d.ts"), 'import type { FromSchema } from "json-schema-to-ts";\nexport type Leak = FromSchema<{ type: "string" }>;\n');

      const [plain, leaked] = await Promise.all([tsc(alone.dir), tsc(leaking.dir)]);
      expect(plain.output.trim(), "tsc on the consumer").toBe("");
      expect(plain.code).toBe(0);
      expect(leaked.code).not.toBe(0);
      expect(leaked.output).toMatch(/status\.d\.ts.*error TS2307: Cannot find module 'json-schema-to-ts'/);
    },
    TIMEOUT_MS,
  );
});
