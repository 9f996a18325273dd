-- changes_agents: the bots active around each robots.txt version change (see
-- audit/changes.go), with one of their headers, for the rules the change added to their
-- group. Reads the temp table version_changes (change_id, host_id, starts, ends).
-- One row per change, bot and identity with a request within 720 hours of the change:
-- (change_id, bot_id, identity_code, identity, user_agent, bot): user_agent is the least
-- of their User-Agents (NULL when none was stored).
-- The User-Agents are grouped on their ids first and named after, so that only the few
-- ids met are looked up in dict, not every request's.
WITH agents AS (
    SELECT c.change_id, r.bot_id, r.identity_code, r.user_agent_id, min(r.user_agent) AS user_agent
    FROM version_changes c
    JOIN requests r ON r.host_id = c.host_id AND r.ts BETWEEN c.starts - INTERVAL 720 HOUR AND c.starts + INTERVAL 720 HOUR
    GROUP BY ALL
)
SELECT a.change_id, a.bot_id, a.identity_code, ['unverified', 'verified', 'spoofed'][a.identity_code + 1],
    min(coalesce(ua.value, a.user_agent)), any_value(bot.value)
FROM agents a
LEFT JOIN dict ua ON ua.id = a.user_agent_id
LEFT JOIN dict bot ON bot.id = a.bot_id
GROUP BY a.change_id, a.bot_id, a.identity_code;
