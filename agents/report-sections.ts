/**
 * Every agent system's report section, registered in one place. The library entry (src/index.ts)
 * and the CLI (src/cli/main.ts) both import this module, so `writeReport` — from the library or
 * from `lexcase report` — includes the section of whichever system wrote the run. A new system
 * adds its agents/<name>/report-section.ts here.
 */
import './case/report-section.js';
import './mad/report-section.js';
import './acal/report-section.js';
import './threeply/report-section.js';
import './emar/report-section.js';
