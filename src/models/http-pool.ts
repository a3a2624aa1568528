/**
 * The keep-alive connection pools that model calls go over: undici's `Agent` (one pool per
 * origin) and its `request` API, loaded as those two modules of undici rather than its whole
 * entry, which also compiles and runs fetch, WebSocket, EventSource, the caches and the mocks:
 * about two thirds of what loading undici costs, paid by every `run` before its first model call.
 * undici is pinned (package.json); the two modules are its public `Agent` and `Dispatcher#request`.
 */
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';

/**
 * A keep-alive pool per origin, with `options` as undici's `Agent` takes them
 * (`keepAliveTimeout` ms, `headersTimeout` / `bodyTimeout` ms with 0 for none, ...).
 */
export function connectionPools(options: ConstructorParameters<typeof Agent>[0]): Dispatcher {
  return new Agent(options);
}

/**
 * One request over `pools` (`Dispatcher#request` of undici: `origin`, `path`, `method`, `headers`,
 * `body`, `signal`, `bodyTimeout` ms): resolves at the response's headers with its status,
 * headers and body stream; rejects with undici's errors (a `code` such as `UND_ERR_SOCKET`).
 */
export function poolRequest(pools: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return request.call(pools, options);
}
