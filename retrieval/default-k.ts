/**
 * The two named defaults for `k`, the number of passages returned when nobody says. Every other
 * file imports these (tests/default-k.test.ts finds any literal k default elsewhere); a command
 * resolves k once from its flag (whose default is one of these) and passes it down explicitly.
 *
 * DEFAULT_K — evidence for an agent: the CLI's `--k` of every system (`lexcase run case|acal|…`,
 * evidence), the search tools' default when the model omits k, the agents' default when called
 * from the library, find_evidence in the service and the explorer's evidence mode.
 * SEARCH_K — a search a person reads: `lexcase search`, a Retriever's `search()` without k, the
 * LangChain retriever, the service's and the explorer's search.
 */
export const DEFAULT_K = 5;
export const SEARCH_K = 10;
