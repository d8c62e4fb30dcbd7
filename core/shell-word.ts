/** One argument as a POSIX shell reads it back unchanged: bare when safe, else single-quoted. */
export function shellWord(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}
