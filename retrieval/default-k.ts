/**
 * The one default for `k`, the number of passages a search returns when nobody says: the CLI's
 * `--k` default for every system, the search tools' default when the model omits k, and the
 * agents' default when called from the library. The CLI passes its value explicitly to the tools.
 */
export const DEFAULT_K = 5;
