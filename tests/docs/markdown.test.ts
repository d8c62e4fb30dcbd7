/**
 * The docs check's reading of Markdown (tests/docs/markdown.ts) and its figure comparison
 * (tests/docs/figures.ts): which blocks run, which are skipped and why, how commands are split,
 * where regions are, and that a drifted figure is caught while a timing column is not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify, commandMode, docFiles, probeUrl, serverCommand, serverExecLine, serverKind, stripComment } from './docs-check.js';
import { compareModuloTimings, demoTable, REGIONS, reproRows } from './figures.js';
import { fencedBlocks, figureRegions, matchLines, replaceRegion, shellCommands, strayMarkers, tableRows } from './markdown.js';

const md = [
  '# t',
  '',
  '```bash',
  'npx lexcase index build default --out idx   # a comment',
  '# a comment line',
  '',
  'lexcase search "x" \\',
  '  --index idx -k 3',
  '```',
  '',
  '<!-- docs-check: skip (needs a GPU) -->',
  '',
  '```sh',
  'lexcase index build pool --embedder openai',
  '```',
  '',
  '```',
  'lexcase run mad --rounds 2',
  '```',
  '',
  '```text',
  'lexcase search "<query>" --index DIR [--method M]',
  '```',
  '',
  '<!-- docs-check: skip () -->',
  '```bash',
  'true',
  '```',
  '',
  '<!-- docs-check: skip (dangling) -->',
  '',
  'text, then `<!-- docs-check: skip (quoted) -->` in code is fine',
  '',
  '```console',
  '$ lexcase eval run r --qrels q',
  '| metric | value |',
  '…',
  '$ lexcase --version',
  '0.1.0',
  '```',
  '',
  '````markdown',
  '<!-- docs-check: skip (an example of a marker, quoted) -->',
  '```bash',
  'not a block',
  '```',
  '````',
].join('\n');

describe('fenced blocks and their markers', () => {
  const blocks = fencedBlocks('t.md', md);
  const kinds = blocks.map((b) => ({ line: b.line, ...classify(b) }));

  it('a shell block runs, a marked one is skipped with its reason, an untagged one with commands is an error, ```text is a synopsis', () => {
    expect(kinds.map((k) => [k.line, k.kind, !!k.error])).toEqual([
      [3, 'run', false],
      [13, 'skip', false],
      [17, 'other', true],
      [21, 'synopsis', false],
      [26, 'other', true],
      [34, 'run', false],
      [42, 'other', false],
    ]);
    expect(blocks[1].marker).toEqual({ kind: 'skip', reason: 'needs a GPU' });
    expect(kinds[2].error).toMatch(/untagged block with commands .*tag it ```bash/);
    expect(kinds[4].error).toMatch(/malformed marker/); // a skip needs a reason
  });

  it('a marker not right above a block is reported; one quoted in code is not', () => {
    expect(strayMarkers('t.md', md)).toEqual([{ line: 30, text: '<!-- docs-check: skip (dangling) -->' }]);
  });

  it('commands: comments dropped, continuations joined, console output kept as the expected stdout', () => {
    expect(shellCommands(blocks[0]).map((c) => [c.line, c.text])).toEqual([
      [4, 'npx lexcase index build default --out idx   # a comment'],
      [7, 'lexcase search "x" \\\n  --index idx -k 3'],
    ]);
    expect(shellCommands(blocks[5])).toEqual([
      { line: 35, text: 'lexcase eval run r --qrels q', expected: ['| metric | value |', '…'] },
      { line: 38, text: 'lexcase --version', expected: ['0.1.0'] },
    ]);
  });

  it('where a command runs: the installed package, the repository, the tarball install, a server', () => {
    expect(commandMode('npx lexcase search q --index idx')).toBe('consumer');
    expect(commandMode('lexcase run case --offline')).toBe('consumer');
    expect(commandMode('npm run bench -- --help')).toBe('repo');
    expect(commandMode('npm install lexcase   # the CLI')).toBe('install');
    expect(commandMode('npx lexcase serve --index idx --runs runs')).toBe('serve');
    expect(commandMode('npx lexcase serve --api --index a=idx/a --port 9000')).toBe('serve');
    // mcp over stdio ends when its (empty) stdin does; over HTTP it is a server like serve
    expect(commandMode('npx lexcase mcp --index idx/default')).toBe('consumer');
    expect(commandMode('npx lexcase mcp --index idx/default --http --port 8765   # streamable HTTP')).toBe('serve');
    expect(commandMode('npx lexcase mcp --index idx   # not --http, only in the comment')).toBe('consumer');
    // README: a comment that names other commands does not make this one a server
    expect(commandMode('npx lexcase mcp --index idx/default          # stdio; --http for streamable HTTP; lexcase serve --api for /v1/search')).toBe(
      'consumer',
    );
  });

  it('servers run on a free port and are probed by what they serve', () => {
    expect(serverCommand('npx lexcase serve --index idx   # → http://127.0.0.1:8080')).toBe('npx lexcase serve --index idx --port 0');
    expect(serverCommand('npx lexcase mcp --index idx --http --port 8765   # x')).toBe('npx lexcase mcp --index idx --http --port 0');
    expect(serverCommand('npx lexcase serve --api --port=9000 --index i')).toBe('npx lexcase serve --api --port 0 --index i');
    expect(serverKind('npx lexcase serve --index idx')).toBe('explorer');
    expect(serverKind('npx lexcase serve --api')).toBe('api');
    expect(serverKind('npx lexcase mcp --http')).toBe('mcp-http');
  });

  it("a server off loopback (docs/mcp.md's token example) runs as the server process with its own variables, and is probed on 127.0.0.1", () => {
    const line = 'LEXCASE_API_TOKEN=$(openssl rand -hex 24) npx lexcase serve --api --host 0.0.0.0 --index idx/default   # every interface';
    expect(commandMode(line)).toBe('serve');
    expect(serverExecLine(serverCommand(line), '"/c/node_modules/.bin/lexcase"')).toBe(
      'LEXCASE_API_TOKEN=$(openssl rand -hex 24) exec "/c/node_modules/.bin/lexcase" serve --api --host 0.0.0.0 --index idx/default --port 0',
    );
    expect(serverExecLine('npx lexcase serve --index idx --port 0')).toBe('exec npx lexcase serve --index idx --port 0');
    expect(probeUrl('lexcase API at http://0.0.0.0:41635/v1 (OpenAPI 3.1: http://0.0.0.0:41635/v1/openapi.json; indexes: default)')).toBe(
      'http://127.0.0.1:41635',
    );
    expect(probeUrl('lexcase explorer at http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(probeUrl('[info] loading…')).toBeUndefined();
  });

  it('a trailing comment comes off (so --port 0 is not appended inside it); a # in quotes stays', () => {
    expect(stripComment('npx lexcase serve --index idx   # → http://127.0.0.1:8080')).toBe('npx lexcase serve --index idx');
    expect(stripComment('lexcase search "issue #5" -k 1 # c')).toBe('lexcase search "issue #5" -k 1');
    expect(stripComment("lexcase search 'a # b'")).toBe("lexcase search 'a # b'");
  });
});

describe('expected output', () => {
  it('matches line by line, with … standing for any lines, and catches a changed figure', () => {
    expect(matchLines(['a', '…', 'z'], ['a', 'b', 'c', 'z'])).toBe(true);
    expect(matchLines(['a', '…'], ['a'])).toBe(true);
    expect(matchLines(['recall 0.073'], ['recall 0.081'])).toBe(false);
    expect(matchLines(['a  '], ['a'])).toBe(true);
  });
});

const demoOut = `# lexcase demo

lexcase 0.1.0 · 2026-11-25T23:03:52.502Z · steps: build-index · 41.2 s

## Retrieval: barexam val split

Corpus: **default** (6,151 passages) · dataset **barexam**
Query: prompt + "\\n" + question.

| method | Recall@10 | p50 ms |
| :----- | --------: | -----: |
| bm25   | 0.073 [0.032, 0.121] | 1.6 |
| qld    | 0.065 [0.024, 0.113] | 1.3 |

![plot](recall-at-k.svg)

## CASE: offline heuristic, no LLM — barexam val split

Four heuristic advocates per question.

### Metrics — offline heuristic, no LLM

| metric   | value (95% CI)             |
| :------- | :------------------------- |
| accuracy | 26.6% [19.4, 34.7] (n=124) |

Tool calls: bm25_search 2224.

| baseline | accuracy (95% CI) |
|---|---|
| always A | 20.2% [13.7, 27.4] |

wrote report.md and report.json
`;

describe('figure regions', () => {
  const doc = 'a\n<!-- figures:demo-table -->\nold\n<!-- /figures:demo-table -->\nb `<!-- figures:pack-size -->` quoted\n';

  it('are found between their comments (not in code) and rewritten in place', () => {
    const [r, ...rest] = figureRegions('README.md', doc);
    expect(rest).toEqual([]);
    expect(r).toMatchObject({ name: 'demo-table', line: 2, content: '\nold\n' });
    expect(replaceRegion(doc, 'demo-table', '\nnew\n')).toBe(doc.replace('old', 'new'));
  });

  it('an unclosed region is an error naming the file and line', () => {
    expect(() => figureRegions('x.md', 'a\n<!-- figures:pack-size -->1 MB\n')).toThrow(/x\.md:2: .*no closing/);
  });

  it('the demo table keeps the tables and the lines the docs show, drops the plot and the prose', () => {
    const t = demoTable(demoOut);
    expect(t).toContain('| bm25   | 0.073 [0.032, 0.121] | 1.6 |');
    expect(t).toContain('**CASE: offline heuristic, no LLM — barexam val split**');
    expect(t).toContain('| accuracy | 26.6% [19.4, 34.7] (n=124) |');
    expect(t).toContain('Tool calls: bm25_search 2224.');
    expect(t).toContain('| always A | 20.2% [13.7, 27.4] |');
    expect(t).not.toMatch(/recall-at-k\.svg|Four heuristic|wrote /);
  });

  it('a drifted cell fails the check, a different latency does not', () => {
    const fresh = demoTable(demoOut);
    expect(compareModuloTimings(fresh, fresh)).toEqual([]);
    expect(compareModuloTimings(fresh.replace('| 1.6 |', '| 9.9 |'), fresh)).toEqual([]);
    const drift = compareModuloTimings(fresh.replace('0.073 [0.032, 0.121]', '0.081 [0.040, 0.129]'), fresh);
    expect(drift).toEqual([expect.stringMatching(/column "Recall@10", row "bm25": the docs say 0\.081 \[0\.040, 0\.129\], the run printed 0\.073/)]);
    expect(compareModuloTimings(fresh.replace('26.6%', '30.0%'), fresh)).toHaveLength(1);
    expect(compareModuloTimings(fresh.replace('Tool calls: bm25_search 2224.', 'Tool calls: 1.'), fresh)).toHaveLength(1);
    // a table with one row more in the run than in the docs is a drift, not a crash (before: "Cannot read properties of undefined (reading 'join')")
    const oneRowMore = fresh.replace(/(\| always A [^\n]*\n)/, '$1| never B | 0.0% |\n');
    expect(oneRowMore).not.toBe(fresh);
    expect(compareModuloTimings(fresh, oneRowMore).length).toBeGreaterThan(0);
    const header = fresh.split('\n').find((l) => l.startsWith('| method'))!;
    expect(compareModuloTimings(fresh.replace(header + '\n', ''), fresh).length).toBeGreaterThan(0);
  });

  it("the default corpus's passage count is the one the demo's Corpus line prints; another count in the docs fails", () => {
    const f = { demoStdout: demoOut };
    expect(REGIONS['default-passages'].render(f)).toBe('6,151');
    expect(REGIONS['default-passages'].check(' 6,151 ', '6,151', f)).toEqual([]);
    expect(REGIONS['default-passages'].check('6,142', '6,151', f)).toEqual([
      expect.stringMatching(/the docs say the default corpus has 6,142 passages, the demo printed 6,151/),
    ]);
    expect(() => REGIONS['default-passages'].render({ demoStdout: '## Retrieval\n' })).toThrow(/no "Corpus: \*\*default\*\* \(N passages\)" line/);
  });

  it('the package size holds within 5 %', () => {
    const f = { packBytes: 15_057_968 };
    expect(REGIONS['pack-size'].render(f)).toBe('15.1 MB');
    expect(REGIONS['pack-size'].check('15.1 MB', '', f)).toEqual([]);
    expect(REGIONS['pack-size'].check('~2.9 MB', '', f)).toEqual([expect.stringMatching(/the docs say 2\.9 MB packed, the tarball is 15\.1 MB/)]);
  });

  it('a reproduction table renders every row with CIs and n, and names a cell that did not run', () => {
    const t = {
      rows: [
        { label: 'BM25-RAG', cells: [{ column: 'Recall@10', value: 0.0726, ci: [0.0323, 0.121] as [number, number], n: 124, status: 'done' }] },
        { label: 'Single Path Rag', cells: [{ column: 'Recall@10', value: null, ci: null, status: 'failed' }] },
      ],
    };
    expect(reproRows(t)).toBe('BM25-RAG R@10 0.0726 [0.0323, 0.1210]; Single Path Rag R@10 — (failed); n = 124');
    expect(REGIONS['case-table3'].check(' x ', 'x', {})).toEqual([]);
    expect(REGIONS['case-table3'].check('BM25-RAG R@10 0.0403', 'BM25-RAG R@10 0.0323', {})).toHaveLength(1);
  });

  it('tables read as cells, the alignment row dropped', () => {
    expect(tableRows('| a | b |\n|---|--:|\n| 1 | 2 |\ntext')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});

describe('the project docs as they stand', () => {
  const files = docFiles();

  it('README.md and every docs/**/*.md are read', () => {
    expect(files[0]).toBe('README.md');
    expect(files).toContain('docs/cli.md');
    expect(files.every((f) => f === 'README.md' || f.startsWith('docs/'))).toBe(true);
  });

  it('no untagged command block, malformed or stray marker, or unknown figure region', () => {
    const problems: string[] = [];
    for (const f of files) {
      const text = readFileSync(join(import.meta.dirname, '../..', f), 'utf8');
      for (const b of fencedBlocks(f, text)) {
        const c = classify(b);
        if (c.error) problems.push(`${f}:${b.line}: ${c.error}`);
      }
      for (const s of strayMarkers(f, text)) problems.push(`${f}:${s.line}: stray ${s.text}`);
      for (const r of figureRegions(f, text)) if (!REGIONS[r.name]) problems.push(`${f}:${r.line}: unknown region ${r.name}`);
    }
    expect(problems).toEqual([]);
  });
});
