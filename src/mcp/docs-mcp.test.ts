/**
 * docs/mcp.md stays true: its client configurations are valid JSON whose arguments are options
 * `lexcase mcp` has, and its example exchange (written by scripts/mcp-example.mjs from a real run)
 * shows the tools this server registers, their input properties and a real tool error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/version.js';
import { loadPassages } from '../../corpora/registry.js';
import { buildProgram } from '../cli/program.js';
import type { z } from 'zod';
import { evidenceInput, explainInput, passageInput, searchHit, searchInput, searchOutput } from '../../serve/query/schemas.js';
import { MCP_TOOLS } from './server.js';

const doc = readFileSync(join(PACKAGE_ROOT, 'docs', 'mcp.md'), 'utf8');
const section = (name: string) => new RegExp(`<!-- ${name}:begin[^>]*-->\\n([\\s\\S]*?)<!-- ${name}:end -->`).exec(doc)?.[1] ?? '';

describe('docs/mcp.md', () => {
  it('client configurations are JSON that start `lexcase mcp` with options it has', () => {
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const mcp = buildProgram().commands.find((c) => c.name() === 'mcp')!;
    const flags = new Set(mcp.options.flatMap((o) => [o.long, o.short].filter(Boolean)));
    for (const b of blocks) {
      const s = b.mcpServers.lexcase;
      const args: string[] = s.command === 'node' ? s.args.slice(1) : s.args;
      if (s.command === 'node') expect(s.args[0]).toMatch(/dist\/src\/cli\/main\.js$/);
      expect(args[0]).toBe('mcp');
      for (const a of args.slice(1).filter((x) => x.startsWith('-'))) expect(flags.has(a), a).toBe(true);
    }
  });

  it('the example exchange was generated against the current tools and schemas', () => {
    const ex = section('mcp-exchange');
    const api = section('api-exchange');
    expect(ex).toMatch(/"method": "initialize"/);
    expect(api).toMatch(/\/v1\/search/);
    const names = [...ex.matchAll(/"name": "([a-z_]+)",\n\s*"title"/g)].map((m) => m[1]);
    expect(names).toEqual([...MCP_TOOLS]);
    const props = [...ex.matchAll(/"inputSchema": \{"properties":(\[[^\]]*\])/g)].map((m) => JSON.parse(m[1]));
    expect(props).toEqual([
      [],
      Object.keys(searchInput.shape),
      Object.keys(explainInput.shape),
      Object.keys(passageInput.shape),
      Object.keys(evidenceInput.shape),
    ]);
    expect(ex).toMatch(/"isError": true/);
  });

  it("the TypeScript example's search result names the fields every hit has, and title only as the field some passages have (Bar Exam QA's have none)", () => {
    const comment = /console\.log\(r\.structuredContent\);\s*\/\/ (.*)/.exec(doc)?.[1] ?? '';
    const top = /^\{ ([^[]*), hits: \[\{ ([^}]*) \}\] \}(.*)$/.exec(comment);
    expect(top, comment).not.toBeNull();
    // the output schema's fields a search of the bundled corpus always gives (title is optional: a Bar Exam QA passage has none)
    const always = (o: z.ZodObject) => Object.keys(o.shape).filter((k) => !(o.shape[k] as z.ZodType).safeParse(undefined).success);
    expect([...top![1].split(', '), 'hits']).toEqual(always(searchOutput));
    // before: "rank, id, score, title, source, …" while the documented query's five hits are mbe_* passages without one
    expect(top![2].split(', ')).toEqual(Object.keys(searchHit.shape).filter((k) => k !== 'title'));
    expect(always(searchHit)).not.toContain('title');
    expect(top![3]).toMatch(/title where a passage has one/);
  });

  it("the example exchange's passage counts (list_indexes, explain's N) are the bundled default corpus's: regenerate it when the corpus changes", async () => {
    let n = 0;
    for await (const _ of loadPassages('default')) n++;
    const counts = [...section('mcp-exchange').matchAll(/"(?:passages|N)": ?(\d+)/g)].map((m) => Number(m[1]));
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect(counts, 'run `npm run build && node scripts/mcp-example.mjs`').toEqual(counts.map(() => n));
  });
});
