-- request_counts over lean_counts (lean.sql): the judge's counts, with the identity of each
-- claim, and the verdicts robots.txt's availability changed (availability_moves: minus one
-- under the version's verdict, plus one under the new, as the view requests replaces the
-- verdict; no address and no time, so that they change no distinct count, first or last).
-- The same shape as request_counts.sql, whose rows are single requests.
CREATE OR REPLACE TEMP VIEW request_counts AS
SELECT l.bot_id, l.host_id, coalesce(c.identity_code, 0) AS identity_code, l.client_ip_id, l.client_ip,
    l.verdict_id, l.robots_fetch, l.visit_breach, l.n, l.first_ts, l.last_ts,
    coalesce(c.signature_status = 'valid', false) AS signed,
    l.bytes, l.s2xx, l.s3xx, l.s304, l.s4xx, l.s5xx, l.s429, l.other_methods,
    l.pref_exposed
FROM lean_counts l LEFT JOIN claims c ON c.id = l.claim_id
UNION ALL
SELECT m.bot_id, m.host_id, coalesce(c.identity_code, 0), NULL, NULL,
    m.verdict_id, false, false, m.n, NULL, NULL,
    false,
    0, 0, 0, 0, 0, 0, 0, 0,
    0::BIGINT
FROM availability_moves m LEFT JOIN claims c ON c.id = m.claim_id;
