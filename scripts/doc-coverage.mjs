// Lists the public exports (every package entry) that have no doc comment. `node scripts/doc-coverage.mjs [--list]`
import ts from 'typescript';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entries = ['index', 'entries/stores', 'entries/tools', 'entries/mcp', 'entries/config', 'entries/testing', 'entries/conversation']
  .map((e) => `${root}src/core/${e}.ts`)
  .filter((f) => ts.sys.fileExists(f));
const program = ts.createProgram(entries, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true });
const checker = program.getTypeChecker();
const seen = new Map();
for (const file of entries) {
  const sf = program.getSourceFile(file);
  const mod = checker.getSymbolAtLocation(sf);
  for (const exp of checker.getExportsOfModule(mod)) {
    const sym = exp.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exp) : exp;
    if (seen.has(sym)) continue;
    const decl = sym.declarations?.[0];
    const documented = sym.getDocumentationComment(checker).length > 0 || (decl && ts.getJSDocTags(decl).length > 0);
    seen.set(sym, { name: exp.name, documented, where: decl ? `${decl.getSourceFile().fileName.replace(root, '')}:${decl.getSourceFile().getLineAndCharacterOfPosition(decl.getStart()).line + 1}` : '?' });
  }
}
const all = [...seen.values()];
const missing = all.filter((x) => !x.documented);
if (process.argv.includes('--list')) for (const m of missing.sort((a, b) => a.where.localeCompare(b.where))) console.log(`${m.where}\t${m.name}`);
console.log(`${all.length - missing.length} of ${all.length} public exports documented`);
process.exitCode = missing.length ? 1 : 0;
