-- The names of the block list's rows (after blocklist.sql), one join a step so that each
-- has DuckDB's memory to itself (as one query, a hostile log's millions of bot names
-- outgrow the memory limit; docs/performance.md): block_named, every address with its name;
-- block_claims, the crawlers each qualifying or held-back address claimed to be (bot, identity: what
-- verification found); then block_rows, the two joined. Addresses are matched on the pair (id, inline string) with NULLs
-- as -1 and '': equality, which DuckDB hashes, where IS NOT DISTINCT FROM made a nested
-- loop. The claims come from the view block_claim_source (blocklist_source*.sql).
CREATE OR REPLACE TEMP TABLE block_ip_names AS
SELECT d.id, d.value
FROM dict d
SEMI JOIN block_addresses a ON a.client_ip_id = d.id;

CREATE OR REPLACE TEMP TABLE block_named AS
SELECT a.*, coalesce(ip.value, a.client_ip) AS address
FROM block_addresses a
LEFT JOIN block_ip_names ip ON ip.id = a.client_ip_id;

DROP TABLE block_ip_names;

CREATE OR REPLACE TEMP TABLE block_claim_rows AS
SELECT coalesce(r.client_ip_id, -1) AS ip_id, coalesce(r.client_ip, '') AS ip, r.bot_id, r.identity,
    -- the signature that made the claim spoofed (invalid, replayed, or valid: another operator's)
    CASE WHEN r.identity = 'spoofed' AND r.signature_status IN ('invalid', 'replayed', 'valid')
         THEN r.signature_status END AS signature
FROM block_claim_source r
SEMI JOIN (SELECT client_ip_id, client_ip FROM block_addresses WHERE qualifies OR held) a
    ON coalesce(a.client_ip_id, -1) = coalesce(r.client_ip_id, -1)
   AND coalesce(a.client_ip, '') = coalesce(r.client_ip, '');

CREATE OR REPLACE TEMP TABLE block_claim_ids AS
SELECT DISTINCT * FROM block_claim_rows;

DROP TABLE block_claim_rows;

CREATE OR REPLACE TEMP TABLE block_claims AS
SELECT c.ip_id, c.ip, bot.value AS bot, c.identity, c.signature
FROM block_claim_ids c
LEFT JOIN dict bot ON bot.id = c.bot_id;

DROP TABLE block_claim_ids;

-- The rows of the block list, unsorted (blocklist_rows.sql sorts them: the join and the
-- sort each with the whole memory limit): one per address that does not qualify, and
-- one per crawler a qualifying or held-back address claimed to be, the address's counts
-- repeated.
CREATE OR REPLACE TEMP TABLE block_rows AS
SELECT
    a.address AS client_ip,
    a.disallowed, a.spoofed, a.in_grace, a.crawl_delay, a.request_rate, a.visit_time,
    a.verified, c.bot, c.identity, a.first_seen, a.last_seen, a.qualifies, a.unreachable, a.held,
    c.signature
FROM block_named a
LEFT JOIN block_claims c
    ON c.ip_id = coalesce(a.client_ip_id, -1)
   AND c.ip = coalesce(a.client_ip, '')
WHERE a.address <> '';

DROP TABLE block_named;
DROP TABLE block_claims;
