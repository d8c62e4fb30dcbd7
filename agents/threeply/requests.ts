/**
 * What a 3-ply system (`kind`) and its evaluator send that decide the results, for the run's request
 * fingerprint (config.json `prompts`, eval/request-fingerprint.ts): each role's system message, its
 * request rendered on placeholders (never a triple) and its reply schema.
 */
import type { TradeSecretModel } from '../../corpora/trade-secret.js';
import { formatFactor } from '../../corpora/trade-secret.js';
import type { RequestParts } from '../../eval/request-fingerprint.js';
import { PLIES } from './format.js';
import * as P from './prompts.js';
import { analystReportSchema, distilledSchema, enhancedThreePlySchema, polisherReportSchema, threePlySchema } from './schemas.js';
import type { ThreePlySystemKind } from './types.js';

const [triple, earlier, segment] = ['{triple}', '{earlier plies}', '{segment}'];

export function threeplyRequests(kind: ThreePlySystemKind, factors: TradeSecretModel): RequestParts {
  const developer = (role: 'developer' | 'plaintiff' | 'defendant') => [P.developerSystem(role), ...PLIES.map((p) => P.plyRequest(p, triple, earlier))];
  const argument: RequestParts =
    kind === 'single' || kind === 'single-enhanced'
      ? { argument: kind === 'single' ? [P.SINGLE_AGENT_SYSTEM, threePlySchema] : [P.ENHANCED_SINGLE_AGENT_SYSTEM, enhancedThreePlySchema] }
      : kind === 'multi-no-reflection'
        ? { plaintiff: developer('plaintiff'), defendant: developer('defendant') }
        : {
            developer: [...developer('developer'), ...PLIES.map((p) => P.revisionRequest(p, triple, earlier, '{draft}', '{feedback}'))],
            analyst: [P.FACTOR_ANALYST_SYSTEM, ...PLIES.map((p) => P.analystRequest(p, triple, segment)), analystReportSchema],
            polisher: [P.ARGUMENT_POLISHER_SYSTEM, ...PLIES.map((p) => P.polisherRequest(p, triple, segment, '{report}')), polisherReportSchema],
          };
  return { ...argument, distiller: [P.FACTOR_DISTILLER_SYSTEM, distilledSchema(factors.factors.map(formatFactor))] };
}
