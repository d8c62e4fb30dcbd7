// The `stopword` package's English list, imported from its own file (src/stopwords_eng.js, ESM)
// instead of the package's main bundle, which builds the lists of all 62 languages on load.
declare module 'stopword/src/stopwords_eng.js' {
  export const eng: string[];
}
