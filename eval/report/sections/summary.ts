/** Run header: what was run, on what (the LLM settings included: llm-fields.ts), with which seed/code/data. */
import { llmFields } from '../llm-fields.js';
import type { SectionBuilder } from '../types.js';

export const summarySection: SectionBuilder = (run) => {
  const c = run.config.config;
  const p = run.config.provenance;
  const fields: [string, unknown][] = [
    ...Object.entries(c).filter(([, v]) => v !== undefined && (typeof v !== 'object' || Array.isArray(v))),
    // the model and prompts are objects in config.json: their few identifying settings, the endpoint masked
    ...llmFields(c),
    ['seed', run.config.seed],
    ['items in results', run.results.length],
    ['items planned', p.items],
    ['dataset checksum', p.datasetChecksum],
    ['git sha', p.gitSha],
    ['lexcase version', p.lexcaseVersion],
    ['created', p.createdAt],
    ...(run.config.resumes?.length ? [['resumed', `${run.config.resumes.length}×`] as [string, unknown]] : []),
    ...(run.config.structuredOutputSwitches ?? []).map(
      (x) =>
        [
          'structured output switched',
          `${x.from} → ${x.to} from item ${x.item} on (the endpoint refused ${x.from}; earlier items were asked in ${x.from})`,
        ] as [string, unknown],
    ),
  ];
  const markdown = fields.map(([k, v]) => `- **${k}**: ${Array.isArray(v) ? v.join(', ') : String(v)}`).join('\n');
  return {
    id: 'summary',
    title: 'Run',
    markdown,
    json: {
      config: c,
      seed: run.config.seed,
      provenance: p,
      resumes: run.config.resumes ?? [],
      ...(run.config.structuredOutputSwitches ? { structuredOutputSwitches: run.config.structuredOutputSwitches } : {}),
    },
  };
};
