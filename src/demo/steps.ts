/**
 * The demo's steps, in order. To add one (e.g. dense retrieval, an offline CASE evidence run),
 * write eval/demo/<name>-step.ts exporting a DemoStep and add it to this list.
 */
import type { DemoStep } from '../../eval/demo/types.js';
import { buildIndexStep } from '../../eval/demo/build-index-step.js';
import { retrievalEvalStep } from '../../eval/demo/retrieval-eval-step.js';
import { denseStep } from '../../eval/demo/dense-step.js';
import { caseOfflineStep } from '../../agents/case/demo-step.js';

export const DEMO_STEPS: DemoStep[] = [buildIndexStep, denseStep, retrievalEvalStep, caseOfflineStep];
