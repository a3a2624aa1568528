/**
 * Issue 11 item 6: the viewer serves loopback Host names only (DNS rebinding), checks Origin on
 * anything but a plain GET, and does not disclose the store's absolute path.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createViewerApp } from '../../src/viewer/server.js';
import { RunStore } from '../../src/store/store.js';
import { tmpDir } from '../support/paths.js';

let db: string;
beforeAll(() => {
  db = path.join(tmpDir('sg-view-host-'), 'store.db');
  RunStore.open(db).close();
});

const req = (url: string, init: RequestInit = {}, allowHosts?: string[]) => createViewerApp({ dbPath: db, uiDir: tmpDir('sg-ui-'), allowHosts }).request(url, init);

describe('viewer Host and Origin checks', () => {
  it('a rebinding page (Host: attacker.example) reads nothing; loopback hosts do', async () => {
    expect((await req('http://attacker.example:8765/api/runs', { headers: { host: 'attacker.example:8765' } })).status).toBe(403);
    expect((await req('/api/runs', { headers: { host: 'rebind.attacker.example' } })).status).toBe(403);
    expect((await req('/', { headers: { host: 'attacker.example' } })).status).toBe(403);
    for (const host of ['127.0.0.1:8765', 'localhost:8765', '[::1]:8765', 'LOCALHOST']) {
      expect((await req('/api/runs', { headers: { host } })).status).toBe(200);
    }
  });

  it('--allow-host adds a name', async () => {
    expect((await req('/api/runs', { headers: { host: 'box.lan:8765' } }, ['box.lan'])).status).toBe(200);
    expect((await req('/api/runs', { headers: { host: 'other.lan:8765' } }, ['box.lan'])).status).toBe(403);
  });

  it('anything but GET needs an allowed Origin', async () => {
    const post = (origin?: string) => req('/api/runs', { method: 'POST', headers: { host: '127.0.0.1:8765', ...(origin ? { origin } : {}) } });
    expect((await post('http://attacker.example')).status).toBe(403);
    expect((await post()).status).toBe(403);
    expect((await post('http://127.0.0.1:8765')).status).toBe(404); // allowed through; no such route
  });

  it('/api/status names the store file, not its absolute path', async () => {
    const res = await req('/api/status', { headers: { host: '127.0.0.1:8765' } });
    const body = (await res.json()) as { db: string };
    expect(body.db).toBe('store.db');
    expect(JSON.stringify(body)).not.toContain(path.dirname(db));
  });
});
