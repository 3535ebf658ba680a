import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The kit everywhere (issue 46 item 7): a page lists records through `DataTable` and edits one
 * through `FormDialog` (app/web/src/ui). A page that hand-rolls a `<table>`, or puts a `<form>` in
 * a raw `<Dialog>`, fails here unless it is listed below with the reason the kit does not fit —
 * the same reason is a `kit:` comment at the spot, and docs/contributors/architecture.md (the web
 * UI) says the rule. An entry no longer needed fails too, so the list says what is left.
 */
const HAND_ROLLED_TABLES: Record<string, { count: number; why: string }> = {
  'pages/analytics.tsx': { count: 4, why: 'three lists of figures named by a row heading (no columns to head) and the weekday × hour heat map' },
  'pages/day-close.tsx': { count: 1, why: "a Z report's payments with a footer of sums (tfoot)" },
  'pages/order-detail.tsx': { count: 1, why: 'a bill: the lines, then a footer of sums (tfoot)' },
};

const FORMS_IN_RAW_DIALOGS: Record<string, string> = {
  // the tablet's sheets stay mounted and are opened for one target after another (useFormFor):
  // their fields live across openings, a refused PIN is cleared and typed again, and Save stays
  // off until the sheet is complete — FormDialog is mounted per edit and says refusals by field
  'pages/service.tsx PinSignIn': 'the tablet\'s PIN pad before anyone is signed in: digit keys, one Sign in, a wrong PIN cleared and said in one line',
  'pages/service.tsx VoidSheet': 'a tablet sheet (see above): reason and a manager PIN',
  'pages/service-discount.tsx DiscountSheet': 'a tablet sheet (see above): mode chips, a live preview of the amount off, a remove without a confirmation',
};

const root = path.resolve(import.meta.dirname, '../../app/web/src');
// the pages, screens and guest pages; the kit itself (ui/) is where the markup is written once
const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.tsx') ? [path.join(dir, e.name)] : []));
const pageFiles = () => ['pages', 'screens', 'guest'].flatMap((d) => sources(path.join(root, d)));

const tagOf = (node: ts.Node): string | null =>
  ts.isJsxElement(node) ? node.openingElement.tagName.getText() : ts.isJsxSelfClosingElement(node) ? node.tagName.getText() : null;

/** The name of the function (or component) a node sits in: the outermost named one. */
function ownerOf(node: ts.Node): string {
  let name = '(module)';
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) && n.name) name = n.name.text;
    else if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isVariableDeclaration(n.parent)) name = n.parent.name.getText();
  }
  return name;
}

function scan() {
  const tables: Record<string, number> = {};
  const formsInDialogs = new Set<string>();
  // each hand-rolled spot, and whether a `kit:` comment says why within a few lines of it
  const uncommented: string[] = [];
  for (const file of pageFiles()) {
    const rel = path.relative(root, file);
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const said = (node: ts.Node) => {
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      if (!lines.slice(Math.max(0, line - 3), line + 2).some((l) => l.includes('kit: '))) uncommented.push(`${rel}:${line + 1}`);
    };
    const hasForm = (node: ts.Node): boolean => ['form', 'FieldForm'].includes(tagOf(node) ?? '') || (ts.forEachChild(node, hasForm) ?? false);
    const visit = (node: ts.Node) => {
      const tag = tagOf(node);
      if (tag === 'table') {
        tables[rel] = (tables[rel] ?? 0) + 1;
        said(node);
      }
      if (tag === 'Dialog' && ts.forEachChild(node, hasForm)) {
        formsInDialogs.add(`${rel} ${ownerOf(node)}`);
        said(node);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { tables, formsInDialogs, uncommented };
}

describe('the web UI uses its kit', () => {
  const found = scan();

  it('lists records through DataTable: a hand-rolled <table> only where listed, with its reason', () => {
    const allowed = Object.fromEntries(Object.entries(HAND_ROLLED_TABLES).map(([k, v]) => [k, v.count]));
    expect(found.tables, 'use DataTable (ui/data-table.tsx), or list the table here with why it cannot be one').toEqual(allowed);
  });

  it('edits through FormDialog: a form in a raw <Dialog> only where listed, with its reason', () => {
    expect([...found.formsInDialogs].sort(), 'use FormDialog (ui/form-dialog.tsx), or list the dialog here with why it cannot be one').toEqual(Object.keys(FORMS_IN_RAW_DIALOGS).sort());
  });

  it('says the reason at each listed spot, in a `kit:` comment', () => {
    expect(found.uncommented).toEqual([]);
  });
});
