// The passage lengths of the bundled corpus by kind (Bar Exam QA gold passages vs legal_corpus
// distractors), as docs/validity.md ("What the text's length says") quotes them. Run after `npm run build`:
//   node scripts/passage-lengths.mjs
import { loadPassages } from '../dist/corpora/registry.js';

const lengths = async (name) => {
  const out = [];
  for await (const p of loadPassages(name)) out.push(p.text.length);
  return out.sort((a, b) => a - b);
};
const median = (a) => (a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2);
for (const [kind, name] of [
  ['gold (barexam)', 'barexam'],
  ['distractors (legal_corpus)', 'legal_corpus'],
]) {
  const l = await lengths(name);
  const over = (n) => l.filter((x) => x > n).length;
  console.log(`${kind}: ${l.length} passages, median ${median(l)} characters, longest ${l.at(-1)}; over 600: ${over(600)}, over 2,000: ${over(2000)}`);
}
