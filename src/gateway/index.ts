/** The local gateway (`herald serve`): transport only; the request flow is the core's. */
export { createGateway, DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_GATEWAY_PORT, DEFAULT_MAX_BODY_BYTES, DEFAULT_OPENAI_BASE_URL, isLoopback, type Gateway, type GatewayOptions, type GatewayRecord } from './gatewayServer';
export { type GatewayOptimizer, type TenantScope } from './gatewayOptimizer';
export { TenantOptimizer } from './tenantOptimizer';
export { tenantOfRequest, tenantOfUser, type Tenant } from './tenants';
export { UserDirectory } from './users';
export { DEFAULT_UPSTREAM_TIMEOUTS, type UpstreamTimeouts } from './upstream';
export { DecisionsFile } from './decisionsFile';
export type { FetchLike } from './upstream';
