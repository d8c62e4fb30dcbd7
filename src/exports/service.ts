/** `lexcase/service`: the query service behind the MCP tools and the HTTP API (serve/query/). */
export { openQueryService, passageUri, type QueryService, type QueryServiceOptions, type IndexSpec } from '../../serve/query/query-service.js';
export type {
  SearchInput,
  SearchOutput,
  ExplainInput,
  ExplainOutput,
  PassageInput as PassageRequest,
  PassageOutput,
  EvidenceInput,
  EvidenceOutput,
  ListIndexesOutput,
  IndexInfo,
} from '../../serve/query/schemas.js';
