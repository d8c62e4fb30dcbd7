/**
 * The registries a user extends lexcase through (registerReportSection, registerTraceSchema from
 * `lexcase/eval`) say on stderr when a registration replaces something: an earlier registration of the
 * same id, or a listed system's own report section (`case`: its runs would get the user's section in
 * place of CASE's figures). Before, each replaced it without a word.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { TraceSchema } from '../records.js';
import type { SectionBuilder } from './types.js';

// The registries are loaded afresh for this file and dropped after it: a file of the fast tier shares
// its worker's modules with others, whose reports must not get the sections registered here.
let log: typeof import('../../core/log.js').log;
let registerReportSection: typeof import('./registry.js').registerReportSection;
let registerTraceSchema: typeof import('../records.js').registerTraceSchema;
let baseTraceSchema: typeof import('../records.js').baseTraceSchema;
beforeAll(async () => {
  vi.resetModules();
  await import('../../agents/systems.js');
  ({ log } = await import('../../core/log.js'));
  ({ registerReportSection } = await import('./registry.js'));
  ({ registerTraceSchema, baseTraceSchema } = await import('../records.js'));
});
afterAll(() => vi.resetModules());
afterEach(() => vi.restoreAllMocks());

const warned = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((c) => String(c[0])).join('\n');
const section =
  (title: string): SectionBuilder =>
  () => ({ id: 'byCategory', title, markdown: '', json: {} });

describe('a registration that replaces another', () => {
  it('of a report section id warns naming it; registering the same builder again does not', () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const first = section('Accuracy by category');
    registerReportSection('by-category-replace', first, { systems: ['my-system'] });
    registerReportSection('by-category-replace', first, { systems: ['my-system'] });
    expect(warn).not.toHaveBeenCalled();
    registerReportSection('by-category-replace', section('Accuracy by topic'), { systems: ['my-system'] });
    expect(warned(warn)).toMatch(/registerReportSection: section "by-category-replace" was registered before; this registration replaces it/);
  });

  it("under a listed system's own section id, without systems, warns naming the systems whose section it replaces", () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    registerReportSection('mad', section('My debate figures'), { systems: ['my-debate'] });
    expect(warn).not.toHaveBeenCalled();
    registerReportSection('mad', section('My debate figures'));
    expect(warned(warn)).toMatch(/"mad" is the report section of mad: without `systems` this registration replaces it in the report of their runs/);
  });

  it('of a trace schema warns naming the system', () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const mine = baseTraceSchema.extend({ steps: z.array(z.string()) }) as unknown as TraceSchema;
    registerTraceSchema('my-traced', mine);
    registerTraceSchema('my-traced', mine);
    expect(warn).not.toHaveBeenCalled();
    registerTraceSchema('my-traced', baseTraceSchema.extend({ steps: z.number() }) as unknown as TraceSchema);
    expect(warned(warn)).toMatch(/registerTraceSchema: system "my-traced" had a trace schema registered before; this registration replaces it/);
  });
});
