import { describe, expect, it } from 'vitest';
// Only the library entry is imported here: the sections must come from its own imports.
import * as lexcase from './index.js';
import { registeredSections } from '../eval/report/registry.js';
import type { RunData } from '../eval/report/types.js';

const run = (system: string): RunData =>
  ({ dir: `runs/${system}`, config: { config: { system } }, results: [], traces: new Map(), droppedTail: false }) as unknown as RunData;
const sectionsFor = (system: string) => registeredSections(run(system)).map((build) => build.name);

describe('the library entry registers every system’s report section', () => {
  it('writeReport from the library sees the CASE, MAD, ACAL, 3-ply and EMAR sections, each for its own runs', () => {
    expect(typeof lexcase.writeReport).toBe('function');
    expect(sectionsFor('case')).toEqual(['caseSection']);
    expect(sectionsFor('mad/mad')).toEqual(['madSection']);
    expect(sectionsFor('acal')).toEqual(['acalSection']);
    expect(sectionsFor('threeply')).toEqual(['threeplySection']);
    expect(sectionsFor('emar')).toEqual(['emarSection']);
  });
});
