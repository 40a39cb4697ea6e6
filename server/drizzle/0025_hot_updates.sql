-- Room on every page of metric and resource for their rows' next versions, so the updates that
-- come round on a schedule stay on their page (HOT: no new index entries, the old version pruned
-- in place) instead of moving the row and adding an entry to every index. Each schedule updates a
-- page's rows in one statement, so every row needs room for its next version: half the page.
-- - metric: a collection cycle rewrites every metric's last_collected_at every 5 minutes (63,000
--   rows at 10,000 VMs). The same updates on a copy of the table (10 cycles): at fillfactor 100,
--   one in ten HOT, 0.53 s of CPU a cycle, the table a fifth larger each cycle until vacuumed; at
--   50, nine in ten HOT, 0.25 s, no growth.
-- - resource: inventory's sync upserts every resource every 15 minutes (last_read, and whatever
--   Azure changed). 72,000 disk rows with their tags and details, 5 syncs: at fillfactor 100, 3%
--   HOT, 1.8-2.3 s of CPU a sync, the table 84 MB larger each sync and its indexes growing; at 50,
--   all HOT, 0.6-0.9 s, no growth, indexes half the size.
-- Existing pages keep their rows until those are next updated; new versions fill new pages only to
-- the fillfactor, so each table heals with its next round of updates and nothing is rewritten here.
ALTER TABLE "metric" SET (fillfactor = 50);
--> statement-breakpoint
ALTER TABLE "resource" SET (fillfactor = 50);
