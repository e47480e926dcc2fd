/**
 * A DevTools-protocol session with a server started with `--inspect=127.0.0.1:<port>`, for memory figures taken
 * at a settled moment: a full garbage collection on demand and the V8 heap's size, and a CPU profile on demand.
 * No domain is enabled until a profile is asked for (no Debugger ever), so that the server's code runs as it does
 * without the session.
 */
export type Inspector = {
  collectGarbage: () => Promise<void>;
  /** Bytes of live objects on the V8 heap (Runtime.getHeapUsage's usedSize). */
  heapUsed: () => Promise<number>;
  /** Starts V8's sampling CPU profiler (every `intervalUs` µs); the profile comes with `stopProfile`. */
  startProfile: (intervalUs: number) => Promise<void>;
  stopProfile: () => Promise<CpuProfile>;
  close: () => void;
};

/** V8's CPU profile (Profiler.stop's `profile`): the call tree's nodes and, per sample, the node it hit. */
export type CpuProfile = {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
  }[];
  samples?: number[];
  timeDeltas?: number[];
};

export async function connectInspector(port: number, timeoutMs = 5000): Promise<Inspector> {
  const deadline = Date.now() + timeoutMs;
  let target: { webSocketDebuggerUrl?: string } | undefined;
  while (!target?.webSocketDebuggerUrl) {
    try {
      const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
        webSocketDebuggerUrl?: string;
      }[];
      target = list[0];
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`No inspector on port ${port}: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error("The inspector refused the connection")), { once: true });
  });
  let lastId = 0;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  socket.addEventListener("message", (message) => {
    const reply = JSON.parse(String(message.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = reply.id === undefined ? undefined : pending.get(reply.id);
    if (!waiter || reply.id === undefined) return;
    pending.delete(reply.id);
    if (reply.error) waiter.reject(new Error(reply.error.message));
    else waiter.resolve(reply.result);
  });
  socket.addEventListener("close", () => {
    for (const waiter of pending.values()) waiter.reject(new Error("The inspector connection closed"));
    pending.clear();
  });
  const call = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = ++lastId;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    collectGarbage: async () => {
      await call("HeapProfiler.collectGarbage");
    },
    heapUsed: async () => ((await call("Runtime.getHeapUsage")) as { usedSize: number }).usedSize,
    startProfile: async (intervalUs) => {
      await call("Profiler.enable");
      await call("Profiler.setSamplingInterval", { interval: intervalUs });
      await call("Profiler.start");
    },
    stopProfile: async () => {
      const { profile } = (await call("Profiler.stop")) as { profile: CpuProfile };
      await call("Profiler.disable");
      return profile;
    },
    close: () => socket.close(),
  };
}
