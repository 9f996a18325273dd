-- The views the block list reads (blocklist.sql, blocklist_names.sql, blocklist_held.sql)
-- over every bot request and its window measures. blocklist_source_lean.sql makes the same
-- views over a lean audit's counts; the block list's definition reads only these shapes.
-- block_requests: what each client address's requests count for the block list: n
-- requests of one bot and identity under one verdict, of which crawl_delay and
-- request_rate breached the windows, from first_ts to last_ts.
CREATE OR REPLACE TEMP VIEW block_requests AS
SELECT r.client_ip_id, r.client_ip, r.identity_code, r.verdict_id, r.visit_breach,
    m.crawl_delay_breach::BIGINT AS crawl_delay, m.request_rate_breach::BIGINT AS request_rate,
    1::BIGINT AS n, r.ts AS first_ts, r.ts AS last_ts
FROM requests r JOIN measures m ON m.rid = r.rid;

-- block_claim_source: the crawlers each address claimed to be, with what verification
-- found (identity) and the signature's status, as often as they come.
CREATE OR REPLACE TEMP VIEW block_claim_source AS
SELECT client_ip_id, client_ip, bot_id, identity, signature_status
FROM requests;

-- block_held_source: the requests of verified claims that robots.txt disallowed, per
-- address, bot, group and deciding rule (n of them).
CREATE OR REPLACE TEMP VIEW block_held_source AS
SELECT client_ip_id, client_ip, bot_id, robots_group_id, rule_id, rule_line, 1::BIGINT AS n
FROM requests
WHERE identity_code = 1
  AND verdict_id = (SELECT max(id) FILTER (WHERE value = 'disallowed') FROM dict);
