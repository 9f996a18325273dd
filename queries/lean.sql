-- lean_counts: what a lean audit (no --db, --parquet or per-request output) stores in
-- place of every bot request: the judge's counts per bot, host, claim, client address,
-- verdict and the two flags the summary counts, with the first and last request of each.
-- A key may come in several rows (the judge hands its counts over in bounded batches);
-- request_counts_lean.sql sums them.
CREATE OR REPLACE TEMP TABLE lean_counts (
    bot_id       INTEGER,
    host_id      INTEGER,
    claim_id     INTEGER,
    client_ip_id INTEGER,      -- the address's dict id, or NULL and ...
    client_ip    VARCHAR,      -- ... the address itself when not in dict (NULL: none logged)
    verdict_id   INTEGER,      -- the verdict robots.txt's version gave (decisions.verdict_id)
    robots_fetch BOOLEAN,
    visit_breach BOOLEAN,
    n            BIGINT,       -- how many requests
    first_ts     TIMESTAMPTZ,
    last_ts      TIMESTAMPTZ,
    -- what the requests cost and how they were answered, as request_counts.sql counts them
    bytes        BIGINT,       -- response bytes summed, a NULL as 0
    s2xx         BIGINT,       -- statuses 200-299
    s3xx         BIGINT,       -- 300-399 but 304
    s304         BIGINT,
    s4xx         BIGINT,       -- 400-499, 429 too
    s5xx         BIGINT,       -- 500-599
    s429         BIGINT,
    other_methods BIGINT,      -- methods other than GET and HEAD
    pref_exposed BIGINT        -- how many of the n were pref_exposed (requests_store)
);

-- availability_moves: the verdicts robots.txt's availability changed, per bot, host, claim,
-- client address (only when the block list is wanted, else NULL) and verdict: n -1 under the
-- version's verdict, +1 under disallowed_unreachable or allowed_unavailable. The judge fills
-- it when some /robots.txt request failed.
CREATE OR REPLACE TEMP TABLE availability_moves (
    bot_id       INTEGER,
    host_id      INTEGER,
    claim_id     INTEGER,
    client_ip_id INTEGER,
    client_ip    VARCHAR,
    verdict_id   INTEGER,
    n            BIGINT
);
