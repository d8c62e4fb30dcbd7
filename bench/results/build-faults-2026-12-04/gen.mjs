// node gen.mjs N zipf|bench OUT.jsonl (from the repo root): the scale bench corpus as a file.
import { pathToFileURL } from 'node:url';
const { generateCorpusFile } = await import(pathToFileURL(`${process.cwd()}/dist/bench/scale-child.js`).href);
console.log(await generateCorpusFile({ n: Number(process.argv[2]), seed: 42, profile: process.argv[3], file: process.argv[4] }));
