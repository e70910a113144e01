/**
 * The layout is the architecture (docs/architecture.md): two wings, the validator and the
 * reference server, stand on two floors, diagnostics and model; the CLI is the door to both.
 * Each folder below may import only the folders listed before it, so imports point down and no
 * two folders can need each other; no file may reach itself through its imports.
 */
const FLOORS = ["src/package-files.ts", "src/ajv-runtime.ts", "src/ajv-formats.ts", "src/generated/", "src/generated-modules.ts", "src/diagnostics/", "src/model/"];
const VALIDATOR = [
  "src/validator/net/",
  "src/validator/item/",
  "src/validator/fair/",
  "src/validator/stac/",
  "src/validator/engine/",
  "src/validator/links/",
  "src/validator/report/",
  "src/index.ts",
];
const SERVER = [
  // The adapters' typed errors: what stores, queues and the CLI that catches them share.
  "src/server/errors.ts",
  // Finding the optional packages a part of the server needs, before it is loaded.
  "src/server/optional.ts",
  "src/server/geometry/",
  "src/server/osm/",
  "src/server/quality/",
  "src/server/store/",
  "src/server/query/",
  "src/server/fill/",
  "src/server/demo/",
  "src/server/formats/",
  "src/server/api/",
  "src/server/exports/",
  "src/server/tasks/",
  "src/server/http/",
  "src/server/routes/",
  "src/server/app.ts",
  "src/server/index.ts",
  // `basemodel/server` for import(): index.ts once its packages are found.
  "src/server/entry.ts",
];
const DOOR = ["src/cli/"];
/**
 * The browser's side: web/shared/ and one folder per page (web/home/, ...). They talk to the server
 * over HTTP, typed by `basemodel/api` (type-only, resolved to the published declarations); of
 * src/ they may import the model floor alone, plain data and functions that run anywhere.
 */
const WEB_MAY_IMPORT = ["src/model/"];
/**
 * The library's public entry, `import … from "basemodel"` resolved through package.json's
 * "exports" as a bundler resolves it: the one part of the package the validator page (web/validate/)
 * runs, to validate in the browser as the command line does. Nothing else of dist/, and never
 * basemodel/server.
 */
const LIBRARY_ENTRY = "^dist/(index\\.d\\.ts|lib-bundle/index\\.js)$";

const pattern = (path) => `^${path.replace(/[.]/g, "\\.")}${path.endsWith("/") ? "" : "$"}`;
const any = (paths) => paths.map(pattern).join("|");

/** Within one ordered list, a layer may not import a layer after it. */
function downOnly(name, layers) {
  return layers.slice(0, -1).map((layer, index) => ({
    name: `${name}-down-only`,
    comment: `${layer} is below ${layers.slice(index + 1).join(", ")}: it may not import them`,
    severity: "error",
    from: { path: pattern(layer) },
    to: { path: any(layers.slice(index + 1)) },
  }));
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A file that reaches itself through its imports (type-only imports count too)",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    ...downOnly("layers", [...FLOORS, ...VALIDATOR, ...SERVER, ...DOOR]),
    {
      name: "validator-stands-on-diagnostics",
      comment: "The validator needs no OpenStreetMap data types: it stands on diagnostics alone",
      severity: "error",
      from: { path: any(VALIDATOR) },
      to: { path: any(["src/model/", ...SERVER]) },
    },
    {
      name: "server-apart-from-validator",
      comment: "The server does not validate items: the two wings meet only in the CLI",
      severity: "error",
      from: { path: any(SERVER) },
      to: { path: any(VALIDATOR) },
    },
    {
      name: "web-talks-http",
      comment: "The pages talk to the server over HTTP: of src/ they import the model floor alone (types of the wire come from basemodel/api)",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^src/", pathNot: any(WEB_MAY_IMPORT) },
    },
    {
      name: "wire-types-only",
      comment: "basemodel/api is the wire's types to the pages: its schemas and code stay on the server",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^dist/", pathNot: LIBRARY_ENTRY, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "library-in-the-validator-page",
      comment: "The validator page (web/validate/) validates with the library's public entry, `basemodel`; no other page runs the library",
      severity: "error",
      from: { path: "^web/", pathNot: "^web/validate/" },
      to: { path: LIBRARY_ENTRY, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "pages-apart",
      comment: "A page imports web/shared/ and its own folder, never another page",
      severity: "error",
      from: { path: "^web/([^/]+)/" },
      to: { path: "^web/", pathNot: ["^web/$1/", "^web/shared/"] },
    },
    {
      name: "server-serves-built-pages",
      comment: "The server serves the pages' build (dist/web/); it imports nothing of web/",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^web/" },
    },
    {
      name: "model-below-diagnostics-only",
      severity: "error",
      from: { path: "^src/diagnostics/" },
      to: { path: "^src/model/" },
    },
  ],
  options: {
    // The compiled schemas import each other as the schemas' $refs point, cycles included (core
    // STAC's common fields hold bands, whose entries hold common fields): Ajv's code, not ours.
    // dist/ is what the build made of src/, whose own imports are checked: a page's import of the
    // package (basemodel, basemodel/api) is checked where it lands, and not followed further.
    doNotFollow: { path: ["node_modules", "^src/generated/(stac|rule-sets)/", "^dist/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
    includeOnly: "^(src|web|dist)/",
  },
};
