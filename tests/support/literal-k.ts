/**
 * Finds `k` defaults written as literals instead of DEFAULT_K / SEARCH_K (retrieval/default-k.ts).
 * Reads the TypeScript syntax tree (comments, strings and formatting cannot hide or fake a hit) and
 * looks only where a k default can be: the right side of `k ?? …` / `k || …`, a parameter,
 * destructured binding or variable named k given a value, an object property named k (`{ k: 10 }`,
 * zod's `k: z.number().default(10)`), and the default of a CLI option `-k/--k` (commander's
 * `.option('-k, --k <n>', …, 10)` or `new Option('--k <n>').default(10)`). A number used for
 * anything else (`slice(0, 10)`, `bins ?? 5`, `MAX_K = 10` is not a default) is not looked at.
 */
import ts from 'typescript';

export interface LiteralK {
  file: string;
  line: number;
  text: string;
}

/** Names that hold a k: k, topK, top_k, defaultK, searchK, evidenceK, SEARCH_K, DEFAULT_K, … (not MAX_K, MIN_K). */
const K_NAME = /^(?!max|min)(k|top_?k|(?:[a-z]*_?)?(?:default|search|evidence)_?k)$/i;

function nameOf(n: ts.Node | undefined): string | undefined {
  if (!n) return undefined;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
  if (ts.isStringLiteralLike(n) || ts.isNumericLiteral(n)) return n.text;
  if (ts.isComputedPropertyName(n)) return nameOf(n.expression);
  return undefined;
}

/** The name an expression reads: `k`, `o.k`, `o['k']`, `params.get('k')`, `o?.k`. */
function readName(e: ts.Expression): string | undefined {
  e = strip(e);
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  if (ts.isElementAccessExpression(e)) return nameOf(e.argumentExpression);
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && /^(get|getAll)$/.test(e.expression.name.text)) return nameOf(e.arguments[0]);
  return undefined;
}

/** Parentheses, `as`, `!`, `satisfies` and `<T>` casts removed. */
function strip(e: ts.Expression): ts.Expression {
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e) || ts.isSatisfiesExpression(e) || ts.isTypeAssertionExpression(e))
      e = e.expression;
    else return e;
  }
}

/** The literal values an expression can take: a number, a numeric string, `String(10)`, either side of `c ? 10 : 5` (`k ?? 10` is the binary rule's). */
function literalValues(e: ts.Expression): number[] {
  e = strip(e);
  if (ts.isNumericLiteral(e)) return [Number(e.text)];
  if (ts.isStringLiteralLike(e) && /^\s*\d+(\.\d+)?\s*$/.test(e.text)) return [Number(e.text)];
  if (ts.isConditionalExpression(e)) return [...literalValues(e.whenTrue), ...literalValues(e.whenFalse)];
  if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && /^(String|Number|parseInt|parseFloat)$/.test(e.expression.text) && e.arguments[0])
    return literalValues(e.arguments[0]);
  return [];
}

/** Whether a call or `new` names the k option: its first argument is a flags string with -k or --k (or --top-k). */
function isKOptionCall(e: ts.Expression): boolean {
  e = strip(e);
  if (!ts.isCallExpression(e) && !ts.isNewExpression(e)) return false;
  const first = e.arguments?.[0];
  return !!first && ts.isStringLiteralLike(first) && /(^|[\s,])(-k|--k|--top-k)(?=$|[\s,<[=])/.test(first.text);
}

/** Whether `.default(…)`'s receiver chain starts at a k option (`new Option('--k <n>').argParser(f).default(10)`). */
function chainHasKOption(e: ts.Expression): boolean {
  for (let x = strip(e); ; ) {
    if (isKOptionCall(x)) return true;
    if (ts.isCallExpression(x) && ts.isPropertyAccessExpression(x.expression)) x = strip(x.expression.expression);
    else if (ts.isPropertyAccessExpression(x)) x = strip(x.expression);
    else return false;
  }
}

/** `.default(v)` calls within an expression chain (zod: `z.number().int().default(10).describe(…)`). */
function defaultCalls(e: ts.Expression): ts.Expression[] {
  const out: ts.Expression[] = [];
  for (let x = strip(e); ; ) {
    if (ts.isCallExpression(x) && ts.isPropertyAccessExpression(x.expression)) {
      if (x.expression.name.text === 'default' && x.arguments[0]) out.push(x.arguments[0]);
      x = strip(x.expression.expression);
    } else if (ts.isPropertyAccessExpression(x)) x = strip(x.expression);
    else return out;
  }
}

/**
 * Literal k defaults in one source file whose value is one of `values` (5 and 10, and whatever
 * DEFAULT_K and SEARCH_K are now).
 */
export function literalKDefaults(file: string, text: string, values: readonly number[]): LiteralK[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: LiteralK[] = [];
  const bad = (v: ts.Expression | undefined) => !!v && literalValues(v).some((x) => values.includes(x));
  const hit = (n: ts.Node) =>
    out.push({ file, line: src.getLineAndCharacterOfPosition(n.getStart(src)).line + 1, text: n.getText(src).replace(/\s+/g, ' ').slice(0, 120) });
  const isK = (name: string | undefined) => name !== undefined && K_NAME.test(name);
  const visit = (n: ts.Node): void => {
    if (
      ts.isBinaryExpression(n) &&
      (n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
        n.operatorToken.kind === ts.SyntaxKind.BarBarToken ||
        n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionEqualsToken ||
        n.operatorToken.kind === ts.SyntaxKind.BarBarEqualsToken)
    ) {
      if (isK(readName(n.left)) && bad(n.right)) hit(n);
    } else if ((ts.isParameter(n) || ts.isBindingElement(n) || ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n)) && n.initializer) {
      const name = ts.isBindingElement(n) ? (nameOf(n.propertyName) ?? nameOf(n.name)) : nameOf(n.name);
      if (isK(name) && (bad(n.initializer) || defaultCalls(n.initializer).some(bad))) hit(n);
    } else if (ts.isPropertyAssignment(n)) {
      if (isK(nameOf(n.name)) && (bad(n.initializer) || defaultCalls(n.initializer).some(bad))) hit(n);
    } else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const method = n.expression.name.text;
      if (/^(option|requiredOption)$/.test(method) && isKOptionCall(n))
        n.arguments
          .slice(1)
          .filter((a) => bad(a))
          .forEach(hit);
      else if (method === 'default' && chainHasKOption(n.expression.expression) && bad(n.arguments[0])) hit(n.arguments[0]);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}
