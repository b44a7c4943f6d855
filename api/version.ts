/** The API's version, as the reference, the health check and the MCP server announce it. */
export const API_VERSION = '0.0.1';
