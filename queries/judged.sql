-- measures: the window measures of every audited request (window_measures, in
-- measures.sql), stored for the reports that list requests and for
-- `crawlaudit query`, keyed by the rid of "requests" (a narrow table:
-- copying every column of requests would cost several times the windows).
CREATE OR REPLACE TABLE measures AS
SELECT rid, gap_us, rate_count, crawl_delay_breach, request_rate_breach, crawl_delay_unsupported FROM window_measures(true);

-- judged: every audited request with its names and measures, for the
-- reports and for `crawlaudit query`.
CREATE OR REPLACE VIEW judged AS
SELECT
    r.ts,
    coalesce(host.value, '')  AS host,
    coalesce(ip.value, r.client_ip) AS client_ip,
    method.value              AS method,
    coalesce(target.value, r.target) AS target,
    r.status,
    r.bytes,
    coalesce(ua.value, r.user_agent) AS user_agent,
    bot.value                 AS bot,
    file.value                AS file,
    r.line,
    version.value             AS robots_version,
    grp.value                 AS robots_group,
    verdict.value             AS verdict,
    rule.value                AS rule,
    r.rule_line,
    r.crawl_delay,
    r.rate_requests,
    r.rate_seconds,
    visit.value               AS visit_window,
    r.visit_breach,
    r.robots_fetch,
    m.gap_us,
    m.rate_count,
    m.crawl_delay_breach,
    m.request_rate_breach,
    m.crawl_delay_unsupported,
    r.identity,
    cl.evidence               AS identity_evidence,
    cl.signature_status,
    cl.signer,
    r.pref_exposed            -- fetched where the AI-use preference in effect refused the crawler's purpose
FROM requests r
JOIN measures m ON r.rid = m.rid
LEFT JOIN dict host    ON host.id    = r.host_id
LEFT JOIN dict ip      ON ip.id      = r.client_ip_id
LEFT JOIN dict target  ON target.id  = r.target_id
LEFT JOIN dict method  ON method.id  = r.method_id
LEFT JOIN dict ua      ON ua.id      = r.user_agent_id
LEFT JOIN dict bot     ON bot.id     = r.bot_id
LEFT JOIN dict file    ON file.id    = r.file_id
LEFT JOIN dict version ON version.id = r.robots_version_id
LEFT JOIN dict grp     ON grp.id     = r.robots_group_id
LEFT JOIN dict verdict ON verdict.id = r.verdict_id
LEFT JOIN dict rule    ON rule.id    = r.rule_id
LEFT JOIN dict visit   ON visit.id   = r.visit_window_id
LEFT JOIN claims cl    ON cl.id      = r.claim_id;
