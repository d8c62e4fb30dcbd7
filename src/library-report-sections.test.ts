import { describe, expect, it } from 'vitest';
// Only the library entry is imported here: the sections must come from its own imports.
import * as lexcase from './index.js';
import { registeredSections } from '../eval/report/registry.js';
import type { RunData } from '../eval/report/types.js';

const run = (system: string, more: Record<string, unknown>): RunData =>
  ({ dir: `runs/${system}`, config: { config: { system, ...more } }, results: [], traces: new Map(), droppedTail: false }) as unknown as RunData;
const sectionsFor = async (system: string, more: Record<string, unknown> = {}) => (await registeredSections(run(system, more))).map((build) => build.name);

describe('the library entry registers every system’s report section', () => {
  it('writeReport from the library sees the CASE, MAD, ACAL, 3-ply and EMAR sections, each for its own runs', async () => {
    expect(typeof lexcase.writeReport).toBe('function');
    expect(await sectionsFor('case')).toEqual(['caseSection']);
    expect(await sectionsFor('mad/mad')).toEqual(['madSection']);
    expect(await sectionsFor('acal')).toEqual(['acalSection']);
    expect(await sectionsFor('threeply', { variant: 'reflective' })).toEqual(['threeplySection']);
    expect(await sectionsFor('emar')).toEqual(['emarSection']);
  });
});
