import { describe, expect, it } from 'vitest';
import { applyPaperSampling, PAPER_SAMPLING } from '../../agents/common/paper-settings.js';
import { llmConfigSchema } from '../../core/config.js';
import { paperSamplingLine } from './paper-sampling-line.js';

const defaults = llmConfigSchema.parse({});
const sources = { given: [], flags: [], env: {}, cwd: '/' };

/** The line `lexcase run` logs for `system` with nothing set by the user. */
function line(system: string, explicit: string[] = [], llm = defaults) {
  const p = applyPaperSampling(system, llm, explicit);
  return { p, line: paperSamplingLine(system, PAPER_SAMPLING[system], p.llm, [...p.fromPaper, ...p.lexcaseDefaults], sources) };
}

describe("the sampling line names the paper's values as the paper's and lexcase's own as lexcase's", () => {
  it("self-consistency's 0.7 (MAD gives no temperature) is a lexcase default, not the paper's, in the line and in fromPaper", () => {
    const { p, line: l } = line('self-consistency');
    // before: "self-consistency: temperature 0.7 (the paper's; set llm.temperature to override)", fromPaper ['temperature']
    expect(l).toBe('self-consistency: temperature 0.7 (lexcase default; the paper gives none; set llm.temperature to override)');
    expect(p.fromPaper).toEqual([]);
    expect(p.lexcaseDefaults).toEqual(['temperature']);
  });

  it("run case's agent temperature 0.3 is a lexcase default; run baseline's 0.3 stays the paper's", () => {
    expect(line('case').line).toBe('case: temperature 0.3 (lexcase default; the paper gives none; set llm.temperature to override)');
    expect(line('baseline').line).toBe("baseline: temperature 0.3 (the paper's; set llm.temperature to override)");
    expect(line('baseline').p.fromPaper).toEqual(['temperature']);
  });

  it("a value the user sets over a lexcase default names that default as lexcase's", () => {
    const env = { LEXCASE_LLM_TEMPERATURE: '0.2' };
    const p = applyPaperSampling('case', { ...defaults, temperature: 0.2 }, ['temperature']);
    expect(paperSamplingLine('case', PAPER_SAMPLING.case, p.llm, [], { ...sources, env })).toBe(
      'case: temperature 0.2 (LEXCASE_LLM_TEMPERATURE; lexcase default 0.3)',
    );
  });

  it("EMAR's three values stay the paper's", () => {
    expect(line('emar').line).toBe("emar: temperature 0.1, topP 0.9, maxTokens 2048 (the paper's; set llm.temperature to override)");
  });
});
