import { afterAll, describe, expect, it } from 'vitest';
import { closeSharedBrowser, newEpisodeContext, sharedBrowser } from '../../src/surfaces/browser-pool.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';

describe.skipIf(lacks(CHROMIUM_NEED))(needing('browser pool', CHROMIUM_NEED), () => {
  afterAll(() => closeSharedBrowser());

  it('shares one browser and isolates episodes in their own contexts', async () => {
    const [a, b] = await Promise.all([sharedBrowser(), sharedBrowser()]);
    expect(a).toBe(b);
    const c1 = await newEpisodeContext();
    const c2 = await newEpisodeContext();
    const p1 = await c1.newPage();
    await p1.setContent('<p>one</p>');
    await c1.addCookies([{ name: 'k', value: 'episode-1', url: 'http://127.0.0.1/' }]);
    const p2 = await c2.newPage();
    await p2.setContent('<p>two</p>');
    expect((await c1.cookies()).map((c) => c.value)).toEqual(['episode-1']);
    expect(await c2.cookies()).toEqual([]);
    expect(await p1.textContent('p')).toBe('one');
    await c1.close();
    await c2.close();
    expect(a.contexts().length).toBe(0);
  }, 120_000);

  it('relaunches after the browser is closed', async () => {
    const a = await sharedBrowser();
    await a.close();
    const b = await sharedBrowser();
    expect(b.isConnected()).toBe(true);
    expect(b).not.toBe(a);
  }, 120_000);

  it('relaunches once when several episodes open at once after a crash (no orphan browser)', async () => {
    const a = await sharedBrowser();
    await a.close();
    const got = await Promise.all([sharedBrowser(), sharedBrowser(), sharedBrowser()]);
    expect(new Set(got).size).toBe(1);
    expect(got[0]).not.toBe(a);
    expect(await sharedBrowser()).toBe(got[0]);
  }, 120_000);
});
