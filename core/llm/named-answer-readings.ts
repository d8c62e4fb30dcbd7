/**
 * The readings core/llm/named-answer.ts decides, recorded in a run's config.json: each one's current value and the older
 * values lexcase recorded, with the day each was current until, so a run dir recording an older one resumes with "records
 * an older …" (eval/resume-unrecorded.ts). A change of the rule is one entry here: the current value moves to `older`.
 */
export interface RecordedReading {
  /** The config.json key. */
  name: string;
  current: string;
  /** Older recorded values, oldest first; `until`: the day (and change of that day) it stopped being recorded; `changed`: what changed then. */
  older: readonly { value: string; until: string; changed?: string }[];
}

export const NAMED_ANSWER_READINGS = {
  /** How an option letter is read (agents/common/option-letter.ts). */
  optionLetterReading: {
    name: 'optionLetterReading',
    current:
      'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition, a clause set off inside it or not ("C. If the answer is B, …", "C. If, as the buyer argues, the answer is B, …", "whether the answer is D", "the answer is B only if …", nor one another party is reported to give ("C. The seller argues that the answer is B."), nor one another party is reported to hold ("C. The court held that the answer is B.", "Many believe the answer is B"), the reply\'s own analysis not another party ("C. This analysis concludes that the answer is B." names two, as "C. I argued that the answer is B." does), nor one followed by a condition after a comma or dash ("C. The answer is B, but only if …", "the answer is B, unless …"); a phrase set off before "is" leaves it named ("C. The answer, in my view, is B." names two); none where a marked letter is followed by another option\'s text whole, not its own ("B. <option A\'s text>")',
    older: [
      {
        until: '2026-12-01',
        value:
          'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option ("(A) or (D)")',
      },
      {
        until: '2026-12-02',
        value:
          'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c")',
      },
      {
        until: '2026-12-02 (fifth change)',
        value:
          'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition ("C. If the answer is B, …", "whether the answer is D", "the answer is B only if …")',
      },
      {
        until: '2026-12-02 (sixth change)',
        value:
          'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition, a clause set off inside it or not ("C. If the answer is B, …", "C. If, as the buyer argues, the answer is B, …", "whether the answer is D", "the answer is B only if …")',
      },
      {
        until: '2026-12-02 (seventh change)',
        value:
          'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition, a clause set off inside it or not ("C. If the answer is B, …", "C. If, as the buyer argues, the answer is B, …", "whether the answer is D", "the answer is B only if …", nor one another party is reported to give ("C. The seller argues that the answer is B.")',
      },
      {
        until: '2026-12-03',
        value:
          'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition, a clause set off inside it or not ("C. If the answer is B, …", "C. If, as the buyer argues, the answer is B, …", "whether the answer is D", "the answer is B only if …", nor one another party is reported to give ("C. The seller argues that the answer is B."), nor one another party is reported to hold ("C. The court held that the answer is B.", "Many believe the answer is B"), nor one followed by a condition after a comma or dash ("C. The answer is B, but only if …", "the answer is B, unless …"); a phrase set off before "is" leaves it named ("C. The answer, in my view, is B." names two)',
      },
      {
        until: '2026-12-05',
        changed: "a marked letter followed by another option's text whole (\"B. The contract is void.\" where that is option A's text, not B's) was read as B",
        value:
          'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition, a clause set off inside it or not ("C. If the answer is B, …", "C. If, as the buyer argues, the answer is B, …", "whether the answer is D", "the answer is B only if …", nor one another party is reported to give ("C. The seller argues that the answer is B."), nor one another party is reported to hold ("C. The court held that the answer is B.", "Many believe the answer is B"), the reply\'s own analysis not another party ("C. This analysis concludes that the answer is B." names two, as "C. I argued that the answer is B." does), nor one followed by a condition after a comma or dash ("C. The answer is B, but only if …", "the answer is B, unless …"); a phrase set off before "is" leaves it named ("C. The answer, in my view, is B." names two)',
      },
    ],
  },
  /** What tokens.textOtherAnswer counts (core/llm/text-beside-call.ts). */
  textOtherAnswerReading: {
    name: 'textOtherAnswerReading',
    current:
      'an option letter or Yes/No label named as the answer (or in a sentence "Option C is the correct answer.") beside another read in the answer field the schema declares: in a forced call\'s text, a reasoning field the schema declares, or the prose around a JSON object (a schema declaring none: answer, vote, verdict, decision beside reasoning, rationale, explanation, justification); never one under a condition ("if the answer is B, …", "If, as the buyer argues, the answer is B, …", "the answer is B only if …", nor one another party is reported to give ("The seller argues that the answer is B"), nor one another party is reported to hold ("The court held that the answer is B", "Many believe the answer is B"), the reply\'s own analysis not another party ("This analysis concludes that the answer is B" names B, as "I argued that the answer is B" does), nor one followed by a condition after a comma or dash ("The answer is B, but only if …"); a phrase set off before "is" leaves it named ("The answer, in my view, is B")',
    older: [
      {
        until: '2026-12-02 (fifth change)',
        value:
          'an option letter or Yes/No label named as the answer (or in a sentence "Option C is the correct answer.") beside another read: in a forced call\'s text, a reasoning field, or the prose around a JSON object; never one under a condition ("if the answer is B, …", "the answer is B only if …")',
      },
      {
        until: '2026-12-02 (sixth change)',
        value:
          'an option letter or Yes/No label named as the answer (or in a sentence "Option C is the correct answer.") beside another read in the answer field the schema declares: in a forced call\'s text, a reasoning field the schema declares, or the prose around a JSON object (a schema declaring none: answer, vote, verdict, decision beside reasoning, rationale, explanation, justification); never one under a condition ("if the answer is B, …", "If, as the buyer argues, the answer is B, …", "the answer is B only if …")',
      },
      {
        until: '2026-12-02 (seventh change)',
        value:
          'an option letter or Yes/No label named as the answer (or in a sentence "Option C is the correct answer.") beside another read in the answer field the schema declares: in a forced call\'s text, a reasoning field the schema declares, or the prose around a JSON object (a schema declaring none: answer, vote, verdict, decision beside reasoning, rationale, explanation, justification); never one under a condition ("if the answer is B, …", "If, as the buyer argues, the answer is B, …", "the answer is B only if …", nor one another party is reported to give ("The seller argues that the answer is B")',
      },
      {
        until: '2026-12-03',
        value:
          'an option letter or Yes/No label named as the answer (or in a sentence "Option C is the correct answer.") beside another read in the answer field the schema declares: in a forced call\'s text, a reasoning field the schema declares, or the prose around a JSON object (a schema declaring none: answer, vote, verdict, decision beside reasoning, rationale, explanation, justification); never one under a condition ("if the answer is B, …", "If, as the buyer argues, the answer is B, …", "the answer is B only if …", nor one another party is reported to give ("The seller argues that the answer is B"), nor one another party is reported to hold ("The court held that the answer is B", "Many believe the answer is B"), nor one followed by a condition after a comma or dash ("The answer is B, but only if …"); a phrase set off before "is" leaves it named ("The answer, in my view, is B")',
      },
    ],
  },
} as const satisfies Record<string, RecordedReading>;

/** Whether `before`, a recorded value of `reading`, is one of its older values (and `after` another). */
export const isOlderReading = (reading: RecordedReading, before: unknown, after: unknown): boolean =>
  before !== after && reading.older.some((o) => o.value === before);
