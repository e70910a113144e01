// ESLint (flat config): typescript-eslint's recommended rules on the sources, the pages (web/), the
// tests, the benchmarks and the scripts. The layout (imports pointing down, no cycles) is dependency-cruiser's
// job: see .dependency-cruiser.cjs, run beside this by `npm run lint`.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "src/generated/", "node_modules/", "coverage/", ".scratch/", "bench/.corpus/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Terminal output and OSM text are checked for control characters on purpose.
      "no-control-regex": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  // The pages run in the browser, the rest in Node.
  { ignores: ["web/**"], languageOptions: { globals: globals.node } },
  { files: ["web/**"], languageOptions: { globals: globals.browser } },
);
