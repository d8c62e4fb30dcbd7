/**
 * The readings of a model's replies that a run records in config.json besides the named-answer ones
 * (core/llm/named-answer-readings.ts): how replies are read (`replyReading`, core/llm/reply-reading.ts), how their token usage is read (`usageReading`),
 * how cited passage handles are read (`passageHandleReading`, agents/common/passage-handle-reading.ts)
 * and how the Factor Distiller's factor strings are read (`factorMentionReading`, agents/threeply/metrics.ts).
 * Each one's current value and the older values lexcase recorded, oldest first, with the day each was
 * current until and what changed then, so a run dir recording an older one resumes with "records an older …"
 * (eval/resume-unrecorded.ts reads them from here). A change of a reading is one entry here: the current
 * value moves to `older` with its day and change. Plain strings: the runner reads them in offline runs,
 * which must not load LangChain.
 */
import type { RecordedReading } from './llm/named-answer-readings.js';

export const RECORDED_READINGS = {
  /** How an LLM run reads replies (core/llm/reply-reading.ts; recorded by the runner, eval/runner.ts). */
  replyReading: {
    name: 'replyReading',
    current:
      'think and thinking blocks and Harmony analysis channels dropped; two different JSON objects (or calls of the forced function) in one reply refused, a complete one followed by an unclosed one (a revision cut at the token limit) too, and one object naming a key twice with different values; tool-call arguments sent as a JSON object read; a 3-ply ply with no text besides its reasoning refused; identical tool calls in one reply run once',
    older: [
      {
        until: '2026-12-01',
        changed:
          'only <think> blocks were dropped: a draft object in a <thinking> block or a Harmony analysis channel, or the first of two different objects in one reply, was taken for the answer; a tool call whose arguments came as a JSON object was malformed (never ran); a 3-ply ply holding nothing besides its reasoning was kept empty',
        value: 'think-blocks-dropped',
      },
      {
        until: '2026-12-02',
        changed: 'a tool call sent twice in one reply (same tool and arguments) ran twice: a CASE advocate scored its passages twice',
        value:
          'think and thinking blocks and Harmony analysis channels dropped; two different JSON objects (or calls of the forced function) in one reply refused; tool-call arguments sent as a JSON object read; a 3-ply ply with no text besides its reasoning refused',
      },
      {
        until: '2026-12-05',
        changed:
          'a complete JSON object followed by one the token limit cut (the model revising its answer) was read as the answer: the withdrawn draft scored',
        value:
          'think and thinking blocks and Harmony analysis channels dropped; two different JSON objects (or calls of the forced function) in one reply refused; tool-call arguments sent as a JSON object read; a 3-ply ply with no text besides its reasoning refused; identical tool calls in one reply run once',
      },
      {
        until: '2026-12-05 (second change that day)',
        changed:
          'one JSON object naming its answer key twice with different values ({"vote": "B", "vote": "C"}, in the text or a tool call\'s arguments) was read by the last value (JSON.parse\'s rule): the item scored as "C"',
        value:
          'think and thinking blocks and Harmony analysis channels dropped; two different JSON objects (or calls of the forced function) in one reply refused, a complete one followed by an unclosed one (a revision cut at the token limit) too; tool-call arguments sent as a JSON object read; a 3-ply ply with no text besides its reasoning refused; identical tool calls in one reply run once',
      },
    ],
  },
  /** How an LLM run reads a reply's token usage (core/llm/usage-reading.ts, core/llm/reply-usage.ts; recorded by the runner). */
  usageReading: {
    name: 'usageReading',
    current:
      'a total_tokens above prompt + completion counted whole: the excess in the total, not in input/output (tokens.totalAbove); a total_tokens below prompt + completion raised to their sum; input_tokens/output_tokens in a chat completion read as prompt/completion tokens',
    older: [
      {
        until: '2026-12-05',
        changed:
          "a total_tokens below prompt + completion was taken as the total (CASE's stage rows and a --max-tokens budget counted the smaller total while input/output counted the parts), and usage sent as input_tokens/output_tokens was read as a total with no input/output split (or as no usage where no total_tokens came)",
        value: 'a total_tokens above prompt + completion counted whole: the excess in the total, not in input/output (tokens.totalAbove)',
      },
    ],
  },
  /** How a CASE, MAD or ACAL run reads the passage handles its models cite (agents/common/passage-handle-reading.ts). */
  passageHandleReading: {
    name: 'passageHandleReading',
    current:
      'one handle alone, wrapped or punctuated, any case ("P3", "[P3]", "(P3)", "P3.", "【P3】", "Passage 3", "P03"); none where it could be another ("P3, P5"), counted once per accepted reply (metrics.unresolvedCitations), never a passage and never shown back under a handle',
    older: [
      {
        until: '2026-12-01',
        changed: 'a citation naming no handle was counted at every parse of a reply, not once per accepted reply',
        value:
          'one handle alone, wrapped or punctuated, any case ("P3", "[P3]", "(P3)", "P3.", "【P3】", "Passage 3", "P03"); none where it could be another ("P3, P5"), counted (metrics.unresolvedCitations)',
      },
      {
        until: '2026-12-01 (second change)',
        changed:
          'a citation naming no handle was matched by its text (a real id written out counted, or was read as that passage) and shown back to a MAD debater or judge under a handle of its own',
        value:
          'one handle alone, wrapped or punctuated, any case ("P3", "[P3]", "(P3)", "P3.", "【P3】", "Passage 3", "P03"); none where it could be another ("P3, P5"), counted once per accepted reply (metrics.unresolvedCitations)',
      },
    ],
  },
  /** How a 3-ply run reads the Factor Distiller's factor strings (agents/threeply/metrics.ts). */
  factorMentionReading: {
    name: 'factorMentionReading',
    current:
      'every factor id a string names ("F4 …, F6 …" is F4 and F6; "F06", "Factor 6"), and beside them the factor names of its parts that name no id ("F4 …, Security-measures (P)" is F4 and F6) when each such part names one; without ids, factor names split at "," ";" "/" "&" "and" when each part names one; else the string as written (not a factor); a placeholder for none ("", "None", "N/A", "-") names no factor, not a hallucinated one',
    older: [
      {
        until: '2026-12-01',
        changed: 'a bare factor name beside an id ("F4 …, Security-measures (P)") was not counted: F4 alone',
        value:
          'every factor id a string names ("F4 …, F6 …" is F4 and F6; "F06", "Factor 6"); without ids, factor names split at "," ";" "/" "&" "and" when each part names one; else the string as written (not a factor)',
      },
      {
        until: '2026-12-05',
        changed:
          'a placeholder for no factor ("", "None", "N/A"), as a prompt-mode evaluator writes an empty list, was counted as one hallucinated factor (N_h)',
        value:
          'every factor id a string names ("F4 …, F6 …" is F4 and F6; "F06", "Factor 6"), and beside them the factor names of its parts that name no id ("F4 …, Security-measures (P)" is F4 and F6) when each such part names one; without ids, factor names split at "," ";" "/" "&" "and" when each part names one; else the string as written (not a factor)',
      },
    ],
  },
  /** How a 3-ply run reads an abstention (agents/threeply/format.ts isTerminate; the systems' use of it). */
  terminateReading: {
    name: 'terminateReading',
    current:
      '"TERMINATE" in capitals as the first or last line\'s first word, alone or before punctuation and a reason; a ply whose output reads it ends the triple as an abstention in every system (the reflective one\'s polished ply too), and no ply after it is scored',
    older: [
      {
        until: '2026-12-05',
        changed:
          'the reflective system kept a polished ply reading TERMINATE as an argued ply (the triple counted as argued, with no factor), and the single-agent baselines scored the plies a reply wrote after its TERMINATE',
        value: '"TERMINATE" in capitals as the first or last line\'s first word, alone or before punctuation and a reason',
      },
    ],
  },
} as const satisfies Record<string, RecordedReading>;
