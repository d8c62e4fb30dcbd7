/**
 * Registered secrets (API keys): values masked wherever lexcase prints or writes text. A secret is
 * replaced by `***` wherever it occurs in a string, repeatedly, so no occurrence survives (not even
 * one the replacement itself would form).
 */
const secrets = new Set<string>();

/** Register a secret value (e.g. an API key) so it is masked wherever it would be printed. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

/** Forget every registered secret (tests). */
export function clearSecrets(): void {
  secrets.clear();
}

export const SECRET_MASK = '***';

/** `text` with every registered secret replaced by `***` (exact matches only). */
export function maskSecrets(text: string): string {
  let out = text;
  for (const s of secrets) while (out.includes(s)) out = out.split(s).join(SECRET_MASK);
  return out;
}
