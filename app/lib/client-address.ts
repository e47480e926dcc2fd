/**
 * The request header that carries the client's address (as Express resolved it, behind TRUST_PROXY hops) from the
 * HTTP server to the app: server/app.ts sets it on every request and drops any a client sent, and better-auth reads
 * it (auth.server.ts) to record where a session was signed in.
 */
export const CLIENT_ADDRESS_HEADER = "x-vitrine-client-address";
