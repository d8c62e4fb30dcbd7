/** `lexcase/demo`: the demo (src/demo/). */
export { runDemo, type DemoOptions, type DemoResult } from '../demo/run-demo.js';
export { DEMO_STEPS } from '../demo/steps.js';
