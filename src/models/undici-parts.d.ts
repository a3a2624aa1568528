// Types of the two undici modules src/models/http-pool.ts loads on their own (undici ships
// types for its entry only): its `Agent` class, and `Dispatcher#request` as a function of the
// dispatcher it is called on.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export = Agent;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}
