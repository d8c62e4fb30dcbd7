/**
 * The same argument graph under every semantics: claim strength, verdict by threshold, and
 * convergence. Used by `lexcase acal show --compare` and to document how the faithful QE
 * semantics and acal-compat differ.
 */
import { SEMANTICS } from '../semantics/index.js';
import type { SemanticsName } from '../semantics/types.js';
import { recompute } from './recompute.js';
import type { AcalGraph } from './types.js';

export interface SemanticsComparison {
  semantics: SemanticsName;
  claimStrength: number;
  thresholdVerdict: 'Yes' | 'No';
  inBand: boolean;
  converged: boolean;
  iterations: number;
}

export function compareSemantics(graph: AcalGraph): SemanticsComparison[] {
  return SEMANTICS.map((semantics) => {
    const r = recompute({ ...graph, settings: { ...graph.settings, semantics } });
    return {
      semantics,
      claimStrength: r.claimStrength,
      thresholdVerdict: r.thresholdVerdict,
      inBand: r.inBand,
      converged: r.converged,
      iterations: r.iterations,
    };
  });
}
