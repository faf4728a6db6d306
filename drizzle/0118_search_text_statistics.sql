-- The name-fragment search asks the planner how many orders hold a fragment (LIKE '%…%' on the search
-- text of orders_search_trgm_idx). With the default statistics (a 100-entry histogram of that expression)
-- a fragment that no sampled entry holds is estimated at about a hundred orders however common it is, so
-- a common fragment was read through the trigram index and sorted (every match visited) instead of walking
-- the newest orders with the fragment as a filter and stopping at the page. A 1,000-entry histogram lets
-- the estimate follow the fragment (decision 454). ANALYZE (or autovacuum's) applies it.
ALTER INDEX "orders_search_trgm_idx" ALTER COLUMN 1 SET STATISTICS 1000;
