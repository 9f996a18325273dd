-- The names of the block list's rows (after blocklist.sql), one join a step so that each
-- has DuckDB's memory to itself (as one query, 5 M requests of 1.8 M bot names from 1 M
-- addresses did not fit in 384 MB): block_named, every address with its name;
-- block_claims, the crawlers each qualifying address claimed to be (bot, identity: what
-- verification found). Addresses are matched on the pair (id, inline string) with NULLs
-- as -1 and '': equality, which DuckDB hashes, where IS NOT DISTINCT FROM made a nested
-- loop.
CREATE OR REPLACE TEMP TABLE block_named AS
SELECT a.*, coalesce(ip.value, a.client_ip) AS address
FROM block_addresses a
LEFT JOIN dict ip ON ip.id = a.client_ip_id;

CREATE OR REPLACE TEMP TABLE block_claim_ids AS
SELECT DISTINCT coalesce(r.client_ip_id, -1) AS ip_id, coalesce(r.client_ip, '') AS ip, r.bot_id, r.identity
FROM requests r
SEMI JOIN (SELECT client_ip_id, client_ip FROM block_addresses WHERE qualifies) a
    ON coalesce(a.client_ip_id, -1) = coalesce(r.client_ip_id, -1)
   AND coalesce(a.client_ip, '') = coalesce(r.client_ip, '');

CREATE OR REPLACE TEMP TABLE block_claims AS
SELECT c.ip_id, c.ip, bot.value AS bot, c.identity
FROM block_claim_ids c
LEFT JOIN dict bot ON bot.id = c.bot_id;

DROP TABLE block_claim_ids;
