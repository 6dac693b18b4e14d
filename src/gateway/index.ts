/** The local gateway (`herald serve`): transport only; the request flow is the core's. */
export { createGateway, DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_GATEWAY_PORT, DEFAULT_MAX_BODY_BYTES, DEFAULT_OPENAI_BASE_URL, isLoopback, type Gateway, type GatewayOptions, type GatewayRecord } from './gatewayServer';
export { tenantOf, type GatewayOptimizer } from './gatewayOptimizer';
export { TenantOptimizer } from './tenantOptimizer';
export { DecisionsFile } from './decisionsFile';
export type { FetchLike } from './upstream';
