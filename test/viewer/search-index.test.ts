/**
 * The server's text search (src/viewer/search-index.ts) answers what the search answered before it
 * had an index: the same episodes, in matrix order, with the same field and snippet, on a store of
 * real runs (the seed campaign replay with its Chinese transcripts, a validate run, a scripted run
 * with faulty agents). The reference is the former per-search code, kept here verbatim: every
 * episode page built, then each field flattened and matched. And the kept index of a run follows
 * its stored episodes: an added or replaced episode is searched as stored now, reading only the
 * episodes stored since; a deleted one makes it read the run again.
 */
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { RunStore } from '../../src/store/store.js';
import { allEpisodePayloads, runDetail, searchRun } from '../../src/viewer/queries.js';
import { buildSearchIndex, SearchIndexCache } from '../../src/viewer/search-index.js';
import { indexEpisode, searchEpisodes, searchIndex } from '../../src/viewer/search.js';
import type { EpisodeDetail, SearchHit } from '../../src/viewer/types.js';
import { fillViewerStore, type ViewerStore } from '../support/viewer-store.js';
import { tmpDir } from '../support/paths.js';

/** The search as it was before the index (src/viewer/search.ts at the time), verbatim. */
function formerSearch(details: EpisodeDetail[], query: string): SearchHit[] {
  const norm = (s: string) => s.replace(/\s+/g, ' ').toLowerCase();
  const fields = (d: EpisodeDetail): [string, string][] => {
    const out: [string, string][] = [
      ['task', d.episode.task_id],
      ['label', d.episode.label],
    ];
    d.transcript.forEach((t, i) => {
      if (t.kind === 'system') return;
      if (t.kind === 'agent') out.push([`turn ${i} (agent)`, [t.text, ...t.tool_calls.map((c) => `${c.name} ${JSON.stringify(c.arguments)}`)].join(' ')]);
      else if (t.kind === 'tool') out.push([`turn ${i} (tool ${t.name})`, t.output]);
      else out.push([`turn ${i} (${t.kind})`, t.text]);
    });
    for (const c of d.checks) out.push([`check ${c.id}`, `${c.id} ${c.evidence}`]);
    return out;
  };
  const q = norm(query).trim();
  if (!q) return [];
  return details.flatMap((d) => {
    for (const [where, text] of fields(d)) {
      const flat = text.replace(/\s+/g, ' ');
      const at = flat.toLowerCase().indexOf(q);
      if (at < 0) continue;
      const start = Math.max(0, at - 50);
      const end = Math.min(flat.length, at + q.length + 50);
      return [{ episode_id: d.episode.episode_id, where, snippet: `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}` }];
    }
    return [];
  });
}

/** A run's episode pages in matrix order, as the former search read them. */
function pages(store: RunStore, runId: string): EpisodeDetail[] {
  const detail = runDetail(store, runId)!;
  const byId = allEpisodePayloads(store, detail);
  return detail.episodes.map((e) => byId[e.episode_id]);
}

/** Queries drawn from the episodes themselves: words and phrases of every kind of field, in other cases and spacing. */
function queriesOf(details: EpisodeDetail[]): string[] {
  const out = new Set<string>(['', '   ', 'no such text anywhere', 'a', 'E', '"', '{"', 'turn 1', 'check', 'transfer_decision', 'LLM_JUDGE', '退票', '改签']);
  for (const d of details.slice(0, 12)) {
    out.add(d.episode.task_id.toUpperCase());
    out.add(d.episode.label);
    for (const t of d.transcript) {
      const text = t.kind === 'tool' ? t.output : t.text;
      const words = text.split(/\s+/).filter(Boolean);
      if (words.length > 3) out.add(`  ${words.slice(1, 4).join('   \n ')} `.toUpperCase());
      if (t.kind === 'agent') for (const c of t.tool_calls) out.add(c.name);
    }
    for (const c of d.checks) out.add(c.evidence.slice(3, 20));
  }
  return [...out];
}

let s: ViewerStore;
beforeAll(async () => {
  s = await fillViewerStore(tmpDir('sg-viewer-search-'));
}, 60_000);

describe('search over a run', () => {
  it('answers every query as the former search did, on each run of the store (with and without a kept index)', () => {
    const store = RunStore.open(s.db, { readonly: true });
    try {
      const cache = new SearchIndexCache();
      let compared = 0;
      for (const runId of [s.campaignId, s.validateId, s.faultyId]) {
        const details = pages(store, runId);
        const queries = queriesOf(details);
        expect(queries.length).toBeGreaterThan(20);
        for (const q of queries) {
          const want = formerSearch(details, q);
          expect(searchRun(store, runId, q, cache)?.hits, `${runId}: ${JSON.stringify(q)}`).toEqual(want);
          expect(searchRun(store, runId, q)?.hits).toEqual(want);
          expect(searchEpisodes(details, q)).toEqual(want);
          if (want.length) compared++;
        }
      }
      expect(compared).toBeGreaterThan(40);
      expect(searchRun(store, 'nope', 'x', cache)).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('pins the hits of a few queries: the matching episodes in matrix order, the field and the snippet', () => {
    const store = RunStore.open(s.db, { readonly: true });
    try {
      const cache = new SearchIndexCache();
      const hits = searchRun(store, s.faultyId, 'UPDATE_RESERVATION_flights', cache)!.hits;
      expect(hits.map((h) => [h.episode_id, h.where])).toEqual([
        ['T01#0', 'turn 9 (agent)'],
        ['T02#0', 'turn 9 (agent)'],
        ['T02#1', 'turn 9 (agent)'],
        ['T17#0', 'turn 17 (agent)'],
        ['T17#1', 'turn 17 (agent)'],
      ]);
      expect(hits[0].snippet).toBe(' update_reservation_flights {"reservation_id":"8KQ2ZD","cabin":"basic_economy…');
      expect(searchRun(store, s.validateId, 'Cancel', cache)!.hits).toEqual([
        { episode_id: 'T03#0', where: 'turn 9 (agent)', snippet: 'Before I go ahead: I will call cancel_reservation with {"reservation_id":"3PZK9W"}. Sha…' },
        {
          episode_id: 'T15#0',
          where: 'turn 14 (tool get_flight_status)',
          snippet: '…mber": "HAT440", "date": "2026-10-16", "status": "cancelled", "scheduled_departure_time_est": "08:45:00", …',
        },
      ]);
      expect(searchRun(store, s.campaignId, '免改签', cache)!.hits.map((h) => [h.episode_id, h.where, h.snippet])).toEqual([
        ['initial/B2-要求免改签费', 'task', 'B2-要求免改签费'],
        ['automatic_candidate/B2-要求免改签费', 'task', 'B2-要求免改签费'],
        ['manual/B2-要求免改签费', 'task', 'B2-要求免改签费'],
      ]);
    } finally {
      store.close();
    }
  });

  it('keeps the indexes of the runs searched last, within a number of runs and of characters; the last run searched always', () => {
    const store = RunStore.open(s.db, { readonly: true });
    try {
      const byRuns = new SearchIndexCache(2);
      for (const id of [s.campaignId, s.validateId, s.faultyId, s.validateId]) byRuns.index(store, id);
      expect(byRuns.keptRuns()).toEqual([s.faultyId, s.validateId]);
      expect(byRuns.reads.whole).toBe(3);
      const chars = (id: string) => buildSearchIndex(store, id).reduce((n, e) => n + e.lower.length, 0);
      // Room for the faulty and the validate runs' text; the campaign's is the smallest.
      const [faulty, valid, campaign] = [chars(s.faultyId), chars(s.validateId), chars(s.campaignId)];
      expect(campaign).toBeLessThan(Math.min(faulty, valid));
      const byChars = new SearchIndexCache(4, faulty + valid);
      for (const id of [s.faultyId, s.validateId]) byChars.index(store, id);
      expect(byChars.keptRuns()).toEqual([s.faultyId, s.validateId]);
      byChars.index(store, s.campaignId); // the least recent makes way
      expect(byChars.keptRuns()).toEqual([s.validateId, s.campaignId]);
      byChars.index(store, s.faultyId);
      expect(byChars.keptRuns()).toEqual([s.campaignId, s.faultyId]);
      expect(new SearchIndexCache(4, 1).index(store, s.faultyId).length).toBe(10);
    } finally {
      store.close();
    }
  });

  it('keeps a run index while the run is unchanged, reads only the episodes added or replaced since, and reads the run again when one is deleted', () => {
    const db = `${tmpDir('sg-viewer-search-live-')}/store.db`;
    const src = RunStore.open(s.db, { readonly: true });
    const rows = src.episodes(s.validateId);
    const run = src.getRun(s.validateId)!;
    src.close();
    const store = RunStore.open(db);
    try {
      store.saveRun(run);
      store.appendEpisodes(rows.slice(0, 2));
      const cache = new SearchIndexCache();
      const first = cache.index(store, run.id);
      expect(cache.index(store, run.id)).toBe(first);
      expect(searchRun(store, run.id, 'zebra crossing', cache)!.hits).toEqual([]);
      expect(cache.reads).toEqual({ whole: 1, newer: 0 });

      const marked = (i: number, text: string) => {
        const result = structuredClone(rows[i].result) as { messages: { role: string; content: unknown }[] };
        result.messages.find((m) => m.role === 'user')!.content = text;
        return { ...rows[i], result };
      };
      store.appendEpisodes([marked(2, 'A zebra crossing, please')]);
      expect(searchRun(store, run.id, 'zebra crossing', cache)!.hits.map((h) => h.episode_id)).toEqual([rows[2].episode_id]);
      expect(cache.reads).toEqual({ whole: 1, newer: 1 });
      // The last episode replaced by one of the same id (and the same size): found by its new text, no longer by the old.
      store.appendEpisodes([marked(2, 'A zebra Crossinh, please')]);
      expect(searchRun(store, run.id, 'zebra crossing', cache)!.hits).toEqual([]);
      expect(searchRun(store, run.id, 'ZEBRA CROSSINH', cache)!.hits.map((h) => [h.episode_id, h.snippet])).toEqual([[rows[2].episode_id, 'A zebra Crossinh, please']]);
      // An earlier episode replaced: it keeps its place in matrix order.
      store.appendEpisodes([marked(0, 'A zebra crossing at the airport')]);
      expect(searchRun(store, run.id, 'zebra cross', cache)!.hits.map((h) => h.episode_id)).toEqual([rows[0].episode_id, rows[2].episode_id]);
      expect(cache.reads).toEqual({ whole: 1, newer: 3 });
      expect(cache.index(store, run.id)).toEqual(buildSearchIndex(store, run.id));

      // One deleted and another added (same count, a higher rowid): read whole again, and the deleted one is gone.
      const raw = new Database(db);
      raw.prepare('DELETE FROM episodes WHERE run_id = ? AND episode_id = ?').run(run.id, rows[0].episode_id);
      raw.close();
      store.appendEpisodes([rows[3]]);
      expect(searchRun(store, run.id, 'zebra cross', cache)!.hits.map((h) => h.episode_id)).toEqual([rows[2].episode_id]);
      expect(cache.reads).toEqual({ whole: 2, newer: 3 });
      expect(cache.index(store, run.id)).toEqual(buildSearchIndex(store, run.id));
    } finally {
      store.close();
    }
  });

  it('reads only the episodes stored since even when a run stores another while they are read (one snapshot)', () => {
    const db = `${tmpDir('sg-viewer-search-snapshot-')}/store.db`;
    const src = RunStore.open(s.db, { readonly: true });
    const rows = src.episodes(s.validateId);
    const run = src.getRun(s.validateId)!;
    src.close();
    const store = RunStore.open(db);
    const writer = new Database(db);
    try {
      store.saveRun(run);
      store.appendEpisodes(rows.slice(0, 2));
      const cache = new SearchIndexCache();
      cache.index(store, run.id);
      store.appendEpisodes([rows[2]]);
      // The run stores episode 3 just after the index read episode 2 (the episodes stored since).
      const forEach = store.forEachEpisode.bind(store);
      const spy = vi.spyOn(store, 'forEachEpisode').mockImplementation((id, visit, after) => {
        forEach(id, visit, after);
        const r = rows[3];
        if (after) writer.prepare('INSERT INTO episodes (run_id, episode_id, task_id, trial, label, reward, partial, termination, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(r.run_id, r.episode_id, r.task_id, r.trial, r.label, r.reward, r.partial, r.termination, JSON.stringify(r.result));
      });
      try {
        expect(cache.index(store, run.id).map((e) => e.episode_id).sort()).toEqual(rows.slice(0, 3).map((r) => r.episode_id).sort());
      } finally {
        spy.mockRestore();
      }
      expect(cache.reads).toEqual({ whole: 1, newer: 1 });
      // The next search reads the one stored meanwhile, and only it.
      expect(cache.index(store, run.id)).toEqual(buildSearchIndex(store, run.id));
      expect(cache.index(store, run.id)).toHaveLength(4);
      expect(cache.reads).toEqual({ whole: 1, newer: 2 });
    } finally {
      writer.close();
      store.close();
    }
  });
});

describe('a snippet around a match', () => {
  it('holds the match when the text before it has letters whose lower case is longer (Turkish \u0130 lower-cases to i and a dot above)', () => {
    // 30 letters \u0130 before the match: the snippet started 30 characters too far on (past the match, with over 50 of them).
    const text = 'İADE İSTİYORUM! İSTANBUL-İZMİR UÇUŞUM İPTAL EDİLDİ. BİLETİMİN İADESİNİ İSTİYORUM, İŞLEM İÇİN İLETİŞİM BİLGİLERİM: İSİM İLKİM İNCE. İYİ GÜNLER. İNTERNETTEN ALDIM, İKİ KİŞİYİZ, İKİSİ DE İPTAL. Reservation 8KQ2ZD, please refund it';
    const index = [indexEpisode('T01#0', { episode: { task_id: 'T01', label: 'run' }, transcript: [{ kind: 'customer', text }], checks: [] })];
    const [hit] = searchIndex(index, 'reservation 8kq2zd');
    expect(hit).toEqual({ episode_id: 'T01#0', where: 'turn 0 (customer)', snippet: '…. İNTERNETTEN ALDIM, İKİ KİŞİYİZ, İKİSİ DE İPTAL. Reservation 8KQ2ZD, please refund it' });
    // The query as the text lower-cases ('i' and U+0307 for each letter U+0130): the name, 50 characters either side.
    expect(searchIndex(index, 'İLKİM'.toLowerCase())[0].snippet).toBe('…İ İSTİYORUM, İŞLEM İÇİN İLETİŞİM BİLGİLERİM: İSİM İLKİM İNCE. İYİ GÜNLER. İNTERNETTEN ALDIM, İKİ KİŞİYİZ,…');
  });
});
