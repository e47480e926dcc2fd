import { createContext, type RouterContextProvider } from "react-router";
import type { Runtime } from "./runtime.server.ts";

// The edge (routes, app/web) names the runtime's type from here, the one module of the composition root it reads.
export type { Runtime };

/**
 * The composition root's services (database, storage, auth, mail, limiters, config), set by the server for every
 * request where it enters React Router (server/app.ts). Loaders and actions take what they need from here and pass
 * it on to the domains as parameters; nothing below the routes reaches for the runtime itself.
 */
export const runtimeContext = createContext<Runtime>();

/** The runtime of the request a loader or action is answering. */
export function runtimeOf(context: Readonly<RouterContextProvider>): Runtime {
  return context.get(runtimeContext);
}
