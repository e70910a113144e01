// The wire types of src/server/api are read from their JSON Schemas by json-schema-to-ts
// (src/server/api/wire.ts), a devDependency. tsc would publish them as written, as
// `Request<typeof schema>`, which a consumer of `basemodel/api` could resolve only with
// json-schema-to-ts installed. This transformer of the emitted declarations writes each such type
// as the plain type it resolves to, then drops the imports nothing uses any more; a declaration
// file that still needs json-schema-to-ts or the helpers of wire.ts stops the build.
import { posix as path } from "node:path";
import ts from "typescript";

// TypeScript writes every path with "/".
const LIBRARY = "/node_modules/json-schema-to-ts/";
const HELPERS = "/src/server/api/wire.ts";
const PRINT = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.MultilineObjectLiterals;

/** `afterDeclarations` transformer factory for `program.emit`. */
export function wireTypes(program) {
  const checker = program.getTypeChecker();
  const readsSchemas = schemaReader(checker);
  return (context) => (file) => {
    if (!ts.isSourceFile(file) || file.fileName.endsWith(HELPERS)) return file;
    const source = program.getSourceFile(file.fileName);
    let resolved = false;
    const statements = file.statements.map((statement) => {
      const original = ts.getOriginalNode(statement);
      if (!ts.isTypeAliasDeclaration(statement) || !ts.isTypeAliasDeclaration(original) || original.typeParameters || !readsSchemas(original.type)) return statement;
      resolved = true;
      const type = checker.typeToTypeNode(checker.getTypeAtLocation(original.name), original, PRINT);
      if (type === undefined) throw new Error(`${file.fileName}: ${original.name.text} could not be written as a plain type`);
      return context.factory.updateTypeAliasDeclaration(statement, statement.modifiers, statement.name, undefined, relativeImports(type, source.fileName, context));
    });
    if (!resolved) return file;
    const out = context.factory.updateSourceFile(file, withoutUnusedImports(statements, context.factory));
    const leftover = out.statements.find((statement) => ts.isImportDeclaration(statement) && needsHelpers(statement.moduleSpecifier.text, source.fileName));
    if (leftover) throw new Error(`${file.fileName}: its declarations still import ${leftover.moduleSpecifier.text}`);
    return out;
  };
}

/** Whether a type node names json-schema-to-ts, directly or through a generic alias of ours (Answer, Request). */
function schemaReader(checker) {
  const seen = new Map();
  const aliasReads = (declaration) => {
    if (!seen.has(declaration)) {
      seen.set(declaration, false);
      seen.set(declaration, reads(declaration.type));
    }
    return seen.get(declaration);
  };
  const reads = (node) => {
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
      let symbol = checker.getSymbolAtLocation(ts.isTypeReferenceNode(node) ? node.typeName : node.expression);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      for (const declaration of symbol?.declarations ?? []) {
        if (declaration.getSourceFile().fileName.includes(LIBRARY)) return true;
        if (ts.isTypeAliasDeclaration(declaration) && declaration.typeParameters && aliasReads(declaration)) return true;
      }
    }
    return ts.forEachChild(node, reads) ?? false;
  };
  return reads;
}

/** A module the published declarations must not need: json-schema-to-ts, or the helpers that use it. */
function needsHelpers(specifier, fromFile) {
  return specifier === "json-schema-to-ts" || (specifier.startsWith(".") && path.resolve(path.dirname(fromFile), specifier).replace(/\.js$/, ".ts").endsWith(HELPERS));
}

/** The checker names a type it cannot reach from `fromFile` by `import("/absolute/path")`: made relative, as the declarations sit as the sources do. */
function relativeImports(node, fromFile, context) {
  const visit = (child) => {
    if (ts.isImportTypeNode(child) && ts.isLiteralTypeNode(child.argument) && path.isAbsolute(child.argument.literal.text)) {
      const target = child.argument.literal.text;
      if (target.includes("/node_modules/")) throw new Error(`${fromFile}: a wire type names ${target}, which the published declarations cannot`);
      let specifier = path.relative(path.dirname(fromFile), target);
      if (!specifier.startsWith(".")) specifier = `./${specifier}`;
      const argument = context.factory.createLiteralTypeNode(context.factory.createStringLiteral(`${specifier}.js`));
      return context.factory.updateImportTypeNode(child, argument, child.attributes, child.qualifier, child.typeArguments, child.isTypeOf);
    }
    return ts.visitEachChild(child, visit, context);
  };
  return visit(node);
}

/** The statements with the imported names they no longer use left out (an import left with none, too). */
function withoutUnusedImports(statements, factory) {
  const used = new Set();
  const collect = (node) => {
    if (ts.isIdentifier(node)) used.add(node.text);
    ts.forEachChild(node, collect);
  };
  for (const statement of statements) if (!ts.isImportDeclaration(statement)) collect(statement);
  return statements.flatMap((statement) => {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (!bindings || !ts.isNamedImports(bindings)) return [statement];
    const kept = bindings.elements.filter((element) => used.has(element.name.text));
    if (kept.length === 0) return [];
    if (kept.length === bindings.elements.length) return [statement];
    const clause = factory.updateImportClause(statement.importClause, statement.importClause.phaseModifier, statement.importClause.name, factory.updateNamedImports(bindings, kept));
    return [factory.updateImportDeclaration(statement, statement.modifiers, clause, statement.moduleSpecifier, statement.attributes)];
  });
}
