/** Unhandled errors: a short log line for anonymous callers, the whole stack for signed-in ones (bounded per minute). */
import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FULL_ERROR_LOGS_PER_MINUTE, registerEnvelope } from '../src/plugins/envelope.ts';

async function appWithLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ logger: { level: 'error', stream } });
  registerEnvelope(app);
  app.decorateRequest('caller', null);
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['x-test-user']) request.caller = { id: 1 } as never;
    done();
  });
  app.get('/boom', () => {
    throw new Error(`database exploded ${'x'.repeat(5000)}`);
  });
  await app.ready();
  return { app, lines };
}

describe('unhandled error logs', () => {
  it('writes one short line for an anonymous caller, and the stack for a signed-in one', async () => {
    const { app, lines } = await appWithLog();
    const anonymous = await app.inject({ url: '/boom' });
    expect(anonymous.statusCode).toBe(500);
    expect(anonymous.json()).toMatchObject({ status: 'error', message: 'error.internal' });
    expect(anonymous.body).not.toContain('exploded');
    const short = lines.at(-1)!;
    expect(short.msg).toBe('unhandled error (short)');
    expect(JSON.stringify(short).length).toBeLessThan(800);
    expect((short.err as { at: string }).at).toMatch(/^at /);

    await app.inject({ url: '/boom', headers: { 'x-test-user': '1' } });
    const full = lines.at(-1)!;
    expect(full.msg).toBe('unhandled error');
    expect(String((full.err as { stack: string }).stack)).toContain('exploded');
    await app.close();
  });

  it('keeps to a budget of full stacks per minute, then writes short lines', async () => {
    const { app, lines } = await appWithLog();
    // Not across a minute's end (the budget starts again then).
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 5000) await new Promise((r) => setTimeout(r, left + 50));
    for (let i = 0; i < FULL_ERROR_LOGS_PER_MINUTE + 5; i++) await app.inject({ url: '/boom', headers: { 'x-test-user': '1' } });
    const full = lines.filter((l) => l.msg === 'unhandled error').length;
    expect(full).toBeLessThanOrEqual(FULL_ERROR_LOGS_PER_MINUTE);
    expect(lines.filter((l) => l.msg === 'unhandled error (short)').length).toBeGreaterThanOrEqual(5);
    await app.close();
  });
});
