/** How Node runs the production server (scripts/server-node.mjs). */
export const SERVER_NODE_FLAGS: string[];
export const SERVER_NODE_ENV: Record<string, string>;
