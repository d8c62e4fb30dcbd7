/** Shared bits of the ACAL prompts: evidence formatting and the case header. */
import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { AcalTask } from '../tasks.js';
import { passageHandles } from '../../common/passage-handles.js';

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
}

export function formatEvidence(evidence: EvidencePassage[], maxChars = 700): string {
  if (!evidence.length) return '(no passages retrieved)';
  return evidence
    .map((p) => `[${passageHandles().handle(p.id)}]${p.title ? ` ${p.title}:` : ''} ${p.text.length > maxChars ? p.text.slice(0, maxChars) + '…' : p.text}`)
    .join('\n');
}

export function caseHeader(c: CaseInput, withEvidence = true): string {
  return [
    `LEGAL TEST: ${c.task.context}`,
    `CASE: ${c.caseText}`,
    `CLAIM: ${c.claim}`,
    ...(withEvidence ? [`EVIDENCE (retrieved passages; cite by id):\n${formatEvidence(c.evidence)}`] : []),
  ].join('\n\n');
}

export const msgs = (system: string, user: string): BaseMessage[] => [new SystemMessage(system), new HumanMessage(user)];
