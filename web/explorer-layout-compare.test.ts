/**
 * The explorer's layout, figures and accessibility at 360, 768, 1280 and 1920 px
 * (web/test-support/explorer-layout.ts says what is checked): the compare views: three runs, retrieval runs, two traces of one item side by side, two runs.
 * The views are split over three files (explorer-layout-{pages,runs,compare}.test.ts) so the slow
 * tier's workers run them side by side.
 */
import { checkLayout } from './test-support/explorer-layout.js';

checkLayout(['compare-3', 'compare-retrieval', 'compare-pair', 'compare-2']);
