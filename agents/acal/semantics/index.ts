/** Gradual semantics for ACAL's QBAF: pick one by name. */
import { acalCompat } from './acal-compat.js';
import { dfQuad } from './df-quad.js';
import { quadraticEnergy } from './quadratic-energy.js';
import { errors } from '../../../core/errors.js';
import { isSemanticsName, SEMANTICS } from './names.js';
import type { Qbaf, SemanticsName, SemanticsOptions, SemanticsResult } from './types.js';

export * from './types.js';
export { quadraticEnergy, quadraticEnergyUpdate, h } from './quadratic-energy.js';
export { dfQuad, dfquadUpdate, dfquadAggregate } from './df-quad.js';
export { acalCompat, ACAL_COMPAT } from './acal-compat.js';

export { isSemanticsName, SEMANTICS };

export function computeStrengths(qbaf: Qbaf, semantics: SemanticsName, opts: SemanticsOptions = {}): SemanticsResult {
  switch (semantics) {
    case 'quadratic':
      return quadraticEnergy(qbaf, opts);
    case 'dfquad':
      return dfQuad(qbaf, opts);
    case 'acal-compat':
      return acalCompat(qbaf, opts);
    default:
      throw errors.invalidInput('semantics', `unknown semantics "${String(semantics)}"; use one of ${SEMANTICS.join(', ')}`);
  }
}
