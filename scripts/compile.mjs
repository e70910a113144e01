// `tsc -p tsconfig.json`, with one step of our own: the declarations of the wire types are
// written as the plain types they resolve to (scripts/wire-types.mjs).
import ts from "typescript";
import { wireTypes } from "./wire-types.mjs";

const host = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => ts.sys.newLine,
};

/** Compiles the project of `tsconfigPath` as tsc does; throws, after printing them, on errors. */
export function compile(tsconfigPath) {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, undefined, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => fail([diagnostic]) });
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  const emitted = program.emit(undefined, undefined, undefined, false, { afterDeclarations: [wireTypes(program)] });
  fail([...diagnostics, ...emitted.diagnostics]);
}

function fail(diagnostics) {
  if (diagnostics.length === 0) return;
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  throw new Error(`tsc: ${diagnostics.length} error(s)`);
}
