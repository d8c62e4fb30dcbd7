/** `lexcase/service`: the query service behind the MCP tools and the HTTP API (src/service/). */
export { openQueryService, passageUri, type QueryService, type QueryServiceOptions, type IndexSpec } from '../service/query-service.js';
export type { SearchInput, SearchOutput, ExplainInput, ExplainOutput, PassageInput as PassageRequest, PassageOutput, EvidenceInput, EvidenceOutput, ListIndexesOutput, IndexInfo } from '../service/schemas.js';
