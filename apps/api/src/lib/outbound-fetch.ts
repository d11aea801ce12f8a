/**
 * One bounded GET of a URL a person typed (the VAST builder's loader, a campaign's postback test).
 * Fetching such a URL from the server is a server-side request forgery risk, so every caller gets
 * the same guard: every address the host resolves to must be public (no loopback, private,
 * link-local, CGNAT, multicast or reserved ranges, IPv4 or IPv6), checked when the connection is
 * made (the request's `lookup`, so a DNS answer cannot change between check and use). Callers
 * follow redirects themselves (each hop is checked again) and set the overall timeout with the
 * signal. `allowPrivate` (config.allowPrivateFetches: tests and the e2e suite, never production)
 * turns the address check off so tests can serve their stubs on loopback.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/** The error code a refused address fails the request with. */
export const BLOCKED_ADDRESS_CODE = 'EBLOCKEDADDRESS';

/** Addresses a server must never be made to fetch from (RFC 6890 special-purpose ranges and friends). */
const BLOCKED = new net.BlockList();
for (const [a, p] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(a, p, 'ipv4');
// IPv4-mapped addresses (::ffff:a.b.c.d) are checked as IPv4 below: a ::ffff:0:0/96 rule would match every IPv4 address.
for (const [a, p] of [['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const)
  BLOCKED.addSubnet(a, p, 'ipv6');

/** Whether an IP address is loopback, private, link-local or otherwise not a public host. */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
  return BLOCKED.check(address, 'ipv6');
}

/** Whether a URL's host is an address literal that is not public (refused before any connection). */
export function literalBlocked(url: URL): boolean {
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  return net.isIP(literal) !== 0 && isBlockedAddress(literal);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that refuses a host with any address that is not public (used at connection time). */
function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    if (addresses.length === 0) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '');
    const blocked = addresses.find((a) => isBlockedAddress(a.address));
    if (blocked) return callback(Object.assign(new Error(`private address ${blocked.address}`), { code: BLOCKED_ADDRESS_CODE }), '');
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/** One response: a redirect (`location`) or a body of at most `maxBytes`. */
export interface Hop {
  status: number;
  headers: Record<string, string>;
  location: string | null;
  contentType: string | null;
  body: Buffer;
  /** The answer was longer than `maxBytes` (declared or read): the body is cut there. */
  overflow: boolean;
}

/** A response's headers as text (repeated headers joined with ", ", as HTTP allows). */
function headersOf(res: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export interface FetchOnceOptions {
  signal: AbortSignal;
  allowPrivate: boolean;
  accept: string;
  userAgent: string;
  /** Read at most this many bytes of the body; then the connection is dropped. */
  maxBytes: number;
  /**
   * A longer answer: 'refuse' reads nothing when the declared length is over (the caller refuses
   * it); 'truncate' keeps its first `maxBytes` (what a person testing a URL wants to see).
   */
  overLimit: 'refuse' | 'truncate';
}

/** One GET, no redirect followed. Rejects on network errors, timeouts and refused addresses. */
export function fetchOnce(url: URL, opts: FetchOnceOptions): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'GET',
        signal: opts.signal,
        headers: { accept: opts.accept, 'user-agent': opts.userAgent },
        ...(opts.allowPrivate ? {} : { lookup: guardedLookup as unknown as typeof dns.lookup }),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const headers = headersOf(res);
        const contentType = headers['content-type'] ?? null;
        const base = { status, headers, contentType };
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ ...base, location: res.headers.location, body: Buffer.alloc(0), overflow: false });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        const done = (overflow: boolean) => {
          if (settled) return;
          settled = true;
          resolve({ ...base, location: null, body: Buffer.concat(chunks).subarray(0, opts.maxBytes), overflow });
        };
        // A declared length over the limit, to be refused: nothing is read.
        const declared = Number(res.headers['content-length']);
        if (opts.overLimit === 'refuse' && Number.isFinite(declared) && declared > opts.maxBytes) {
          res.destroy();
          return done(true);
        }
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size > opts.maxBytes) {
            res.destroy();
            done(true);
          }
        });
        res.on('end', () => done(false));
        res.on('error', (err) => (settled ? undefined : size > 0 && size >= opts.maxBytes ? done(true) : reject(err)));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
