/** The contest action types (actions.ts holds their schemas); a module of its own so the CLI's help text loads no zod. */
export const CONTEST_ACTIONS = ['accept', 'reject', 'edit', 'add', 'set-base', 'set-relation'] as const;
