/** ACAL's answer labels (LegalBench's Yes/No tasks): one definition, read by its metrics and its plugin's macro-F1. */
export const ACAL_LABELS = ['Yes', 'No'] as const;
