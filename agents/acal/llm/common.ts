/** Shared bits of the ACAL stages: the case input and the [system, user] message pair (texts: ../prompts.ts). */
import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { AcalTask } from '../tasks.js';

export interface EvidencePassage {
  id: string;
  text: string;
  title?: string;
}

export interface CaseInput {
  task: AcalTask;
  claim: string;
  caseText: string;
  evidence: EvidencePassage[];
  /** Characters of each passage shown (default passage-chars.ts). */
  passageChars?: number;
}

export const msgs = (system: string, user: string): BaseMessage[] => [new SystemMessage(system), new HumanMessage(user)];
