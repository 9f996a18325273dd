-- changes: how each bot reacted to each robots.txt version change (see
-- audit/changes.go for the definitions). Reads the temp tables the audit makes:
--   version_changes (change_id, host_id, starts, ends)   a change and the end of its window
--   change_rules (change_id, bot_id, identity_code, rule)   the Disallow rules it added for a bot
-- One row per change, bot and identity with requests in [starts, ends):
-- (change_id, bot_id, identity_code, first_robots_fetch, last_breaking, breaking, first_obeying).
WITH verdicts AS (
    SELECT
        max(id) FILTER (WHERE value = 'disallowed')          AS disallowed,
        max(id) FILTER (WHERE value = 'disallowed_in_grace') AS in_grace
    FROM dict
),
-- The added rules as dict ids: a rule that decided no request has none, and
-- breaks nothing.
rules AS (
    SELECT cr.change_id, cr.bot_id, cr.identity_code, d.id AS rule_id
    FROM change_rules cr JOIN dict d ON d.value = cr.rule
),
req AS (
    SELECT c.change_id, r.bot_id, r.identity_code, r.ts, r.robots_fetch,
        r.verdict_id IN (v.disallowed, v.in_grace) AND cr.rule_id IS NOT NULL AS breaks
    FROM version_changes c
    JOIN requests r ON r.host_id = c.host_id AND r.ts >= c.starts AND r.ts < c.ends
    CROSS JOIN verdicts v
    LEFT JOIN rules cr ON cr.change_id = c.change_id AND cr.bot_id = r.bot_id
        AND cr.identity_code = r.identity_code AND cr.rule_id = r.rule_id
),
marks AS (
    SELECT change_id, bot_id, identity_code,
        min(ts) FILTER (WHERE robots_fetch) AS first_fetch,
        max(ts) FILTER (WHERE breaks)       AS last_break,
        count(*) FILTER (WHERE breaks)      AS breaking
    FROM req
    GROUP BY ALL
)
SELECT m.change_id, m.bot_id, m.identity_code, m.first_fetch, m.last_break, m.breaking,
    min(q.ts) FILTER (WHERE NOT q.robots_fetch
                        AND (m.last_break IS NULL OR q.ts > m.last_break)
                        AND (m.first_fetch IS NULL OR q.ts > m.first_fetch)) AS first_obeying
FROM marks m
JOIN req q USING (change_id, bot_id, identity_code)
GROUP BY ALL;
