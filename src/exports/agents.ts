/** `lexcase/agents`: what every agent system shares: the system registry, passage handles, paper settings (agents/). */
import '../../agents/systems.js';
export { PassageHandles, withPassageHandles, passageHandles } from '../../agents/common/passage-handles.js';
export { AGENT_DEFAULTS } from '../../agents/common/defaults.js';
export { PAPER_SAMPLING, applyPaperSampling, degeneracyWarnings, type PaperSystem } from '../../agents/common/paper-settings.js';
export { SYSTEMS, systemSpec, headlineFigures, modelOf, type SystemSpec } from '../../eval/systems.js';
export { SMALL_N, MIN_BOOTSTRAP_N, type HeadlineMetric, type HeadlineFigure, type FigureContext } from '../../eval/headline-metrics.js';
