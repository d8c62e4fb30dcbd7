/** A string as a literal inside a RegExp source: every metacharacter escaped. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
