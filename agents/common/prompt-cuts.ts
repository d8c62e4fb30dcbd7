/** The wording the report sections share about passages a prompt cut (agents/case, agents/mad report-section.ts). */

/** Items whose traces predate the count of cut passages (no `passageChars` in the trace): said, never counted as shown whole. */
export const notCounted = (n: number) =>
  `${n} item${n === 1 ? "'s trace is" : "s' traces are"} from before lexcase counted passages cut for the prompt: not in this count (their cuts are unknown).`;
