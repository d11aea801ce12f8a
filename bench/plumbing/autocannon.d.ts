/** The part of autocannon's API the plumbing bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
  }
  interface Result {
    requests: { average: number; total: number };
    non2xx: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
