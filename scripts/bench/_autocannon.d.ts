/** The part of autocannon 9's API the benches use (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  /** A request of a sequence; `context` is per connection. */
  interface RequestParams {
    method?: string;
    path?: string;
    body?: string;
    setupRequest?: (req: RequestParams, context: Record<string, number>) => RequestParams;
    onResponse?: (status: number, body: string, context: Record<string, number>) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    headers?: Record<string, string>;
    requests?: RequestParams[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
  export type { Options, RequestParams };
}
