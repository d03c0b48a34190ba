// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    amount?: number;
    duration?: number;
    headers?: Record<string, string>;
    method?: string;
    timeout?: number;
  }
  interface Result {
    start: Date;
    finish: Date;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    requests: { average: number; total: number; sent: number };
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
