/**
 * The explorer's layout, figures and accessibility at 360, 768, 1280 and 1920 px
 * (web/test-support/explorer-layout.ts says what is checked): the search, evidence, eval, runs list, retrieval run, arguments and passage views; and every view's own title.
 * The views are split over three files (explorer-layout-{pages,runs,compare}.test.ts) so the slow
 * tier's workers run them side by side.
 */
import { checkLayout } from './test-support/explorer-layout.js';

checkLayout(['search', 'evidence', 'eval', 'runs', 'run-retrieval', 'arguments', 'passage'], { titles: true });
