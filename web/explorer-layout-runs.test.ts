/**
 * The explorer's layout, figures and accessibility at 360, 768, 1280 and 1920 px
 * (web/test-support/explorer-layout.ts says what is checked): a run of every system (CASE, MAD, ACAL, a baseline, EMAR, 3-ply) with its LLM calls open where it has them, and a reproduction.
 * The views are split over three files (explorer-layout-{pages,runs,compare}.test.ts) so the slow
 * tier's workers run them side by side.
 */
import { checkLayout } from './test-support/explorer-layout.js';

checkLayout(['run-case', 'run-mad', 'run-acal', 'run-baseline', 'run-emar', 'run-threeply', 'reproduction']);
