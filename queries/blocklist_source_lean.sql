-- The views of blocklist_source.sql over a lean audit's counts (lean.sql): lean_counts with
-- the identity and signature of each claim, the verdicts robots.txt's availability moved per
-- address (availability_moves: minus one under the version's verdict, plus one under the
-- new, with no time so that first and last stay those of the requests), the window breaches
-- per address (lean_breaches) and the verified claims' disallowed requests per rule, less
-- those the availability moved (lean_held). The judge fills the last two
-- (audit/lean.go leanBlocks).
CREATE OR REPLACE TEMP VIEW block_requests AS
SELECT l.client_ip_id, l.client_ip, coalesce(c.identity_code, 0) AS identity_code, l.verdict_id,
    l.visit_breach, 0::BIGINT AS crawl_delay, 0::BIGINT AS request_rate, l.n, l.first_ts, l.last_ts
FROM lean_counts l LEFT JOIN claims c ON c.id = l.claim_id
UNION ALL
SELECT m.client_ip_id, m.client_ip, coalesce(c.identity_code, 0), m.verdict_id,
    false, 0, 0, m.n, NULL, NULL
FROM availability_moves m LEFT JOIN claims c ON c.id = m.claim_id
UNION ALL
SELECT client_ip_id, client_ip, NULL, NULL, false, crawl_delay, request_rate, 0, NULL, NULL
FROM lean_breaches;

CREATE OR REPLACE TEMP VIEW block_claim_source AS
SELECT l.client_ip_id, l.client_ip, l.bot_id,
    ['unverified', 'verified', 'spoofed'][coalesce(c.identity_code, 0) + 1] AS identity,
    c.signature_status
FROM lean_counts l LEFT JOIN claims c ON c.id = l.claim_id;

CREATE OR REPLACE TEMP VIEW block_held_source AS
SELECT client_ip_id, client_ip, bot_id, robots_group_id, rule_id, rule_line, n
FROM lean_held;
