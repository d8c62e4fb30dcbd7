/** Every entry under a directory with its content (base64), to compare a tree byte for byte before and after a command. */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export function treeOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        out[`${r}/`] = '';
        walk(r);
      } else if (e.isSymbolicLink()) out[r] = `-> ${readlinkSync(join(dir, r))}`;
      else out[r] = readFileSync(join(dir, r)).toString('base64');
    }
  };
  walk('');
  return out;
}
