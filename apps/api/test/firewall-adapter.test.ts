/**
 * The nginx adapter without nginx: the include file's content, atomic replacement, the reload
 * command (exit status, output, timeout), and through the API: a failing reload makes the entry
 * ERROR with a translated update_firewall_ip, and the next rebuild after the fix makes it ACTIVE.
 */
import type { FirewallEntryItem } from '@backoffice/core/firewall';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NginxAdapter, renderAllowList, runCommand, writeFileAtomic } from '../src/modules/firewall/adapters.ts';
import { firewallServiceFor } from '../src/modules/firewall/service.ts';
import { entryById } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

type Update = { update_db_ip: string; update_firewall_ip: string; entry: FirewallEntryItem };

const tmpDirs: string[] = [];
function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-fw-'));
  tmpDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('allow-list file', () => {
  it('lists each valid address once, sorted, canonical, then deny all', () => {
    const text = renderAllowList(['10.0.0.2', '2001:DB8::1', '10.0.0.1', '10.0.0.2', '::ffff:10.0.0.3', 'not-an-ip', '1.2.3.4; allow all']);
    expect(text.split('\n')).toEqual([
      expect.stringMatching(/^# Managed by Back Office/),
      'allow 10.0.0.1;',
      'allow 10.0.0.2;',
      'allow 10.0.0.3;',
      'allow 2001:db8::1;',
      'deny all;',
      '',
    ]);
    expect(renderAllowList([]).trim().split('\n').at(-1)).toBe('deny all;');
  });

  it('is replaced atomically: readers never see a partial file, no temporary files stay behind', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'sub', 'allow.conf');
    const contents = Array.from({ length: 20 }, (_, i) => `${String(i).repeat(1)}\n`.repeat(20_000 + i));
    let stop = false;
    const seen = new Set<string>();
    const reader = (async () => {
      while (!stop) {
        try {
          seen.add(fs.readFileSync(file, 'utf8'));
        } catch {
          // not there yet
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all(contents.map((c) => writeFileAtomic(file, c)));
    stop = true;
    await reader;
    expect(contents).toContain(fs.readFileSync(file, 'utf8'));
    for (const s of seen) expect(contents).toContain(s);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['allow.conf']);
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('644');
  });
});

describe('reload command', () => {
  it('reports success, exit status and output', async () => {
    expect(await runCommand('echo reloaded', 5000)).toMatchObject({ ok: true, code: 0, output: 'reloaded' });
    expect(await runCommand('echo broken >&2; exit 3', 5000)).toMatchObject({ ok: false, code: 3, timedOut: false, output: 'broken' });
    expect(await runCommand('/nonexistent/nginx -s reload', 5000)).toMatchObject({ ok: false, code: 127 });
  });

  it('is killed with what it started when it takes too long', async () => {
    const dir = tmpDir();
    const marker = path.join(dir, 'child-survived');
    const started = Date.now();
    const result = await runCommand(`(sleep 1; touch ${marker}) & sleep 30`, 300);
    expect(result).toMatchObject({ ok: false, timedOut: true });
    expect(Date.now() - started).toBeLessThan(3000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('the adapter skips an unchanged list and reports failures with a message key', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'allow.conf');
    const log = path.join(dir, 'reloads');
    const adapter = new NginxAdapter(file, `echo x >> ${log}`);
    expect(await adapter.apply(['10.0.0.1'])).toEqual({ ok: true, changed: true });
    expect(await adapter.apply(['10.0.0.1'])).toEqual({ ok: true, changed: false });
    expect(fs.readFileSync(log, 'utf8')).toBe('x\n');
    // Someone edited the file by hand: it is rewritten from the list.
    fs.writeFileSync(file, 'allow all;\n');
    expect(await adapter.apply(['10.0.0.1'])).toEqual({ ok: true, changed: true });
    expect(fs.readFileSync(file, 'utf8')).toContain('allow 10.0.0.1;');

    const failing = new NginxAdapter(file, 'exit 1');
    expect(await failing.apply(['10.0.0.2'])).toMatchObject({ ok: false, key: 'firewall.reload_failed' });
    const slow = new NginxAdapter(file, 'sleep 5', 200);
    expect(await slow.apply(['10.0.0.3'])).toMatchObject({ ok: false, key: 'firewall.reload_timeout' });
    // The folder cannot be created: its parent is a regular file.
    fs.writeFileSync(path.join(dir, 'a-file'), '');
    const unwritable = new NginxAdapter(path.join(dir, 'a-file', 'allow.conf'), 'true');
    expect(await unwritable.apply(['10.0.0.4'])).toMatchObject({ ok: false, key: 'firewall.write_failed' });
  });
});

describe('through the API with FIREWALL_ADAPTER=nginx', () => {
  let t: TestApp;
  let dir: string;
  let file: string;
  let flag: string;
  let admin: { authorization: string };

  beforeAll(async () => {
    dir = tmpDir();
    file = path.join(dir, 'allow.conf');
    flag = path.join(dir, 'nginx-is-fine');
    // The "reload" fails until the flag file exists.
    t = await createTestApp({ firewallAdapter: 'nginx', firewallNginxFile: file, firewallReloadCmd: `test -f ${flag}` });
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
  });
  afterAll(async () => t?.close());

  it('a failing reload: saved in the database, update_firewall_ip carries the translated error, the entry is ERROR', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/firewall/ip', headers: { ...admin, 'accept-language': 'es' }, payload: { ip: '192.0.2.10' } });
    expect(res.statusCode).toBe(200);
    const data = body<Update>(res).data;
    expect(data.update_db_ip).toBe('OK');
    expect(data.update_firewall_ip).toBe('Ha fallado la orden de recarga del cortafuegos');
    expect(data.entry).toMatchObject({ status: 'ERROR', error: 'firewall.reload_failed' });
    expect(fs.readFileSync(file, 'utf8')).toContain('allow 192.0.2.10;');
  });

  it('once the reload works, the next rebuild applies the list and the entry becomes ACTIVE', async () => {
    const id = (await t.app.inject({ url: '/v1/firewall/entries', headers: admin })).json().data.items[0].id as number;
    fs.writeFileSync(flag, '');
    const result = await firewallServiceFor(t.app.ctx).rebuild();
    expect(result).toEqual({ ok: true, changed: true });
    expect(await entryById(t.app, id)).toMatchObject({ status: 'ACTIVE', error: null });
  });

  it('concurrent changes converge: the file lists every allowed address, all ACTIVE', async () => {
    const ips = Array.from({ length: 12 }, (_, i) => `198.51.100.${i + 1}`);
    const results = await Promise.all(
      ips.map((ip) => t.app.inject({ method: 'POST', url: '/v1/firewall/ip', headers: admin, payload: { ip, type: 'HOUR_2' } })),
    );
    for (const r of results) expect(body<Update>(r).data).toMatchObject({ update_db_ip: 'OK', update_firewall_ip: 'OK' });
    const text = fs.readFileSync(file, 'utf8');
    for (const ip of ips) expect(text).toContain(`allow ${ip};`);
    expect(text.trim().endsWith('deny all;')).toBe(true);
    const list = (await t.app.inject({ url: '/v1/firewall/entries?page_size=100', headers: admin })).json().data.items as FirewallEntryItem[];
    expect(list.filter((i) => ips.includes(i.ip)).every((i) => i.status === 'ACTIVE')).toBe(true);
  });

  it('a disabled entry leaves the file', async () => {
    const list = (await t.app.inject({ url: '/v1/firewall/entries?page_size=100', headers: admin })).json().data.items as FirewallEntryItem[];
    const target = list.find((i) => i.ip === '198.51.100.1')!;
    const res = await t.app.inject({ method: 'POST', url: `/v1/firewall/entries/${target.id}/disable`, headers: admin });
    expect(body<{ update_firewall_ip: string }>(res).data.update_firewall_ip).toBe('OK');
    expect(fs.readFileSync(file, 'utf8')).not.toContain('allow 198.51.100.1;');
  });
});
