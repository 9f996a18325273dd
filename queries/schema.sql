-- requests_store: one row per request of a bot, with the verdict the Go matcher
-- reached against the robots.txt version in effect at its timestamp.
-- Human traffic is not stored row by row; it is counted in "traffic".
-- Repeated strings are ids into "dict"; what robots.txt puts in force is an id into
-- "policies", the verdict and its rule an id into "decisions". The view "requests" below
-- joins those back, and the view "judged" (judged.sql) shows the names. Query the views;
-- the ids are an encoding, not an interface.
CREATE TABLE IF NOT EXISTS requests_store (r STRUCT(
    ts                TIMESTAMPTZ,  -- request time, UTC, µs
    host_id           INTEGER,      -- host the request was judged for ('' when unknown)
    client_ip_id      INTEGER,      -- client address, canonical form
    method_id         INTEGER,
    target_id         INTEGER,      -- path and query exactly as logged
    status            INTEGER,
    bytes             BIGINT,
    user_agent_id     INTEGER,
    bot_id            INTEGER,      -- the crawler's product name (Googlebot, bingbot, curl, ...)
    file_id           INTEGER,      -- evidence: log file ...
    line              BIGINT,       -- ... and its 1-based line
    policy_id         INTEGER,      -- what robots.txt put in force (policies); NULL when unaudited
    decision_id       INTEGER,      -- the verdict and its rule (decisions)
    visit_breach      BOOLEAN,      -- outside the Visit-time window
    robots_fetch      BOOLEAN,      -- a request for /robots.txt
    claim_id          INTEGER,      -- who made it: the verification of its bot, address and time (claims)
    target            VARCHAR,      -- the target, User-Agent, client address itself when it is not
    user_agent        VARCHAR,      -- in dict (very long, or new once the audit's dict was full):
    client_ip         VARCHAR,      -- then its *_id is NULL
    retry_after_s     INTEGER,      -- the wait the answer's Retry-After asked for, seconds; NULL: none logged
    pref_exposed      BOOLEAN       -- fetched as allowed where the AI-use preference in effect refuses the crawler's purpose
));

-- What a robots.txt version puts in force for the requests of one group.
CREATE TABLE IF NOT EXISTS policies (
    id                INTEGER,
    robots_version_id INTEGER,      -- the version in effect (file or commit name)
    robots_group_id   INTEGER,      -- the group that applied ('googlebot', '*'); NULL when none
    crawl_delay       DOUBLE,       -- Crawl-delay in force, seconds
    rate_requests     INTEGER,      -- Request-rate in force: n requests ...
    rate_seconds      INTEGER,      -- ... per this many seconds
    visit_window_id   INTEGER,      -- Visit-time in force, 'HHMM-HHMM' UTC
    crawl_delay_ignored BOOLEAN     -- the crawler's operator says it ignores Crawl-delay
);

-- A verdict and the rule that decided it.
CREATE TABLE IF NOT EXISTS decisions (
    id                INTEGER,
    verdict_id        INTEGER,      -- allowed | disallowed | disallowed_in_grace | unaudited
    rule_id           INTEGER,      -- the deciding rule, 'Disallow: /private/'
    rule_line         INTEGER       -- its line in robots.txt
);

-- Who really made the requests: one row per distinct claim, a bot
-- claimed by a User-Agent from one client address while the same range lists were
-- in effect, with what the operators' published ranges and reverse DNS say of it.
CREATE TABLE IF NOT EXISTS claims (
    id                INTEGER,
    identity_code     UTINYINT,     -- 0 unverified, 1 verified, 2 spoofed (the view requests names them)
    evidence          VARCHAR,      -- which list and prefix, which PTR name, or what was missing
    signature_status  VARCHAR,      -- the requests' Web Bot Auth signature: valid, expired, invalid,
                                    -- unknown_key, replayed, unverifiable; NULL when unsigned
    signer            VARCHAR,      -- its signer's origin (https://chatgpt.com)
    signature_key     VARCHAR       -- its keyid (the key's JWK thumbprint)
);

-- availability: the requests whose verdict robots.txt's availability changed
-- (availability.sql fills it): made while robots.txt was unreachable for their operator
-- (disallowed_unreachable, whatever the version said: unreachable is true, and the row has
-- no deciding rule), or disallowed by the version but made while it was unavailable
-- (allowed_unavailable). The view requests puts these verdicts in place of the version's.
CREATE TABLE IF NOT EXISTS availability (
    rid         BIGINT,
    verdict_id  INTEGER,
    unreachable BOOLEAN
);

-- requests: the rows of requests_store as columns, with the policy and the
-- decision of each joined back; rid is the row's id.
-- (The rows are stored as one STRUCT column because DuckDB keeps distinct-
-- value statistics for every top-level column it appends to, which cost
-- more than the copy itself: a STRUCT column has none, so a batch goes in
-- 2.5 times as fast.)
CREATE VIEW IF NOT EXISTS requests AS
SELECT
    s.rid, s.ts, s.host_id, s.client_ip_id, s.method_id, s.target_id, s.status, s.bytes,
    s.user_agent_id, s.bot_id, s.file_id, s.line,
    p.robots_version_id, p.robots_group_id,
    coalesce(av.verdict_id, d.verdict_id) AS verdict_id,
    CASE WHEN av.unreachable THEN NULL ELSE d.rule_id END AS rule_id,
    CASE WHEN av.unreachable THEN NULL ELSE d.rule_line END AS rule_line,
    p.crawl_delay, p.rate_requests, p.rate_seconds, p.visit_window_id,
    s.visit_breach, s.robots_fetch,
    coalesce(p.crawl_delay_ignored, false) AS crawl_delay_ignored,
    coalesce(c.identity_code, 0) AS identity_code,
    ['unverified', 'verified', 'spoofed'][coalesce(c.identity_code, 0) + 1] AS identity, s.claim_id,
    s.target, s.user_agent, s.client_ip, s.retry_after_s,
    c.signature_status,
    coalesce(s.pref_exposed, false) AS pref_exposed
FROM (SELECT rowid AS rid, unnest(r) FROM requests_store) s
LEFT JOIN policies p ON p.id = s.policy_id
LEFT JOIN decisions d ON d.id = s.decision_id
LEFT JOIN claims c ON c.id = s.claim_id
LEFT JOIN availability av ON av.rid = s.rid;

-- The strings behind the *_id columns of requests, policies and decisions.
CREATE TABLE IF NOT EXISTS dict (
    id    INTEGER,
    value VARCHAR
);

-- What the audit knows of each bot name: one row per name, as its first User-Agent
-- described it. (No PRIMARY KEY: the judge writes each name once, and an index of millions
-- of invented names would cost DuckDB memory that its tables may spill, but not an index.)
CREATE TABLE IF NOT EXISTS bots (
    bot            VARCHAR,
    operator       VARCHAR,
    purpose        VARCHAR,
    user_triggered BOOLEAN,  -- robots.txt does not apply to it (operator rules)
    bot_id         INTEGER   -- the name's id in dict (requests.bot_id)
);

-- Request counts per host, bots and humans alike.
CREATE TABLE IF NOT EXISTS traffic (
    host   VARCHAR,
    humans BIGINT,
    bots   BIGINT
);
