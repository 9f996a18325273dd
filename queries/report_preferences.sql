-- The exposure to AI-use preferences per robots.txt version and bot row, for the section
-- preferences of report.html and report.md: the requests (not /robots.txt fetches) of the
-- crawlers whose purpose a preference can refuse, judged by each version, and how many of
-- them were pref_exposed. Counted on ids, the few rows named afterwards. The audit runs it
-- only when some version declares a preference.
WITH counted AS (
    SELECT robots_version_id, bot_id, identity_code,
        count(*) AS requests,
        count(*) FILTER (WHERE pref_exposed) AS exposed
    FROM requests
    WHERE robots_version_id IS NOT NULL AND NOT robots_fetch
    GROUP BY ALL
)
SELECT ver.value AS robots_version, bot.value AS bot, b.purpose,
    ['unverified', 'verified', 'spoofed'][c.identity_code + 1] AS identity,
    c.requests, c.exposed
FROM counted c
JOIN dict ver ON ver.id = c.robots_version_id
JOIN dict bot ON bot.id = c.bot_id
JOIN bots b ON b.bot_id = c.bot_id
WHERE b.purpose IN ('ai-training', 'ai-search', 'ai-assistant', 'search')
ORDER BY robots_version, exposed DESC, requests DESC, bot, identity;
