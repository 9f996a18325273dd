package audit

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
)

// whatIfTopPaths is how many paths of each kind a what_if row lists.
const whatIfTopPaths = 10

// maxWhatIfFile bounds the proposed robots.txt read (it is parsed up to
// robots.Parse's own limit).
const maxWhatIfFile = 64 << 20

// LoadWhatIf reads and parses the proposed robots.txt of --what-if FILE.
// A file that is plainly not a robots.txt (HTML, binary, compressed) or
// has no directive is an error: it would allow everything and say so
// about every request.
func LoadWhatIf(path string) (*robots.File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data := make([]byte, 0, 64<<10)
	buf := make([]byte, 64<<10)
	for len(data) <= maxWhatIfFile {
		n, err := fh.Read(buf)
		data = append(data, buf[:n]...)
		if err != nil {
			break
		}
	}
	f := robots.Parse(data)
	if d, bad := f.NotRobotsTxt(); bad {
		return nil, fmt.Errorf("%s:%d: %s: not a robots.txt", path, d.Line, d.Message)
	}
	if !f.HasDirective() {
		return nil, fmt.Errorf("%s: not a single directive (empty, or only comments)", path)
	}
	return f, nil
}

// whatIfSchema is the table whatif_disallowed: the distinct User-Agent and
// target pairs of the bot requests that the proposed robots.txt disallows,
// each as an id into dict or, for a value not interned, the value itself
// (RequestsSchema).
var whatIfSchema = arrow.NewSchema([]arrow.Field{
	{Name: "user_agent_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "user_agent", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "target_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "target", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// whatIf judges the audit's bot requests also against proposed, as if it
// had been in effect for the whole period (contract §12), and returns
// summary.json's "what_if": per bot and host, the requests that would be
// disallowed and are not now, those disallowed now (or in grace) that it
// would allow, and the top paths of each.
//
// "Would be disallowed" is what a second audit with --robots FILE would
// say: the proposed file's verdict for the bot's group (picked as the
// judge picks it, operator rules included), except that robots.txt's
// availability stands (a request made while the file was unreachable or
// unavailable for its operator is not disallowed by any version), and a
// user-triggered fetcher is never disallowed. So the disallowed requests of
// that second audit number disallowed + disallowed_in_grace −
// newly_allowed + newly_disallowed of this one.
//
// The proposed file decides once per distinct (User-Agent, target) pair,
// streamed from DuckDB; only the pairs it disallows go back, and SQL
// counts the rest.
func (r *Result) whatIf(ctx context.Context, j *judge, proposed *robots.File, profile robots.Profile, mem memory.Allocator) ([]report.WhatIfRow, error) {
	rb := robots.Compile(proposed, profile)
	none := robots.Compile(robots.Parse(nil), profile).Default()
	ident := j.ident
	type uaInfo struct {
		bot  bots.Bot
		rule bots.CrawlerRule
		grp  *robots.Resolved
	}
	uaCache := map[string]*uaInfo{}
	b := array.NewRecordBuilder(mem, whatIfSchema)
	defer b.Release()
	uaID := b.Field(0).(*array.Int32Builder)
	uaStr := b.Field(1).(*array.StringBuilder)
	tID := b.Field(2).(*array.Int32Builder)
	tStr := b.Field(3).(*array.StringBuilder)
	var scratch []byte
	var batches []arrow.RecordBatch
	defer func() {
		for _, rec := range batches {
			rec.Release()
		}
	}()
	err := r.store.EachLarge(ctx, `
SELECT r.user_agent_id, coalesce(ua.value, r.user_agent), r.target_id, coalesce(t.value, r.target)
FROM (SELECT DISTINCT r.user_agent_id, r.user_agent, r.target_id, r.target
      FROM (SELECT unnest(r) FROM requests_store) r
      WHERE NOT r.robots_fetch) r
LEFT JOIN dict ua ON ua.id = r.user_agent_id
LEFT JOIN dict t ON t.id = r.target_id`, nil, func(v []any) error {
		ua, uaIDv, uaOK := stringOf(v[0], v[1])
		target, tIDv, tOK := stringOf(v[2], v[3])
		if !tOK {
			return nil // no target: nothing to decide
		}
		info := uaCache[ua]
		if info == nil {
			info = &uaInfo{bot: ident.Identify(ua)}
			info.rule, _ = j.rules.Crawler(info.bot.Name)
			info.grp = groupOf(rb, ua, info.bot, info.rule, none)
			if len(uaCache) >= 1<<16 {
				clear(uaCache)
			}
			uaCache[ua] = info
		}
		if info.rule.UserTriggered {
			return nil // robots.txt does not apply
		}
		var d robots.Decision
		d, scratch = info.grp.DecideString(target, scratch)
		if d.Allowed {
			return nil
		}
		if uaOK && uaIDv >= 0 {
			uaID.Append(uaIDv)
			uaStr.AppendNull()
		} else if uaOK {
			uaID.AppendNull()
			uaStr.Append(ua)
		} else {
			uaID.AppendNull()
			uaStr.AppendNull()
		}
		if tIDv >= 0 {
			tID.Append(tIDv)
			tStr.AppendNull()
		} else {
			tID.AppendNull()
			tStr.Append(target)
		}
		if uaID.Len() >= flushRows {
			batches = append(batches, b.NewRecordBatch())
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("--what-if: %w", err)
	}
	batches = append(batches, b.NewRecordBatch())
	if err := r.store.Exec(ctx, `CREATE OR REPLACE TEMP TABLE whatif_disallowed (user_agent_id INTEGER, user_agent VARCHAR, target_id INTEGER, target VARCHAR)`); err != nil {
		return nil, err
	}
	for _, rec := range batches {
		if err := r.store.Insert(ctx, "whatif_disallowed", rec); err != nil {
			return nil, fmt.Errorf("--what-if: %w", err)
		}
	}
	var out []report.WhatIfRow
	byKey := map[[2]string]int{}
	err = r.store.Each(ctx, whatIfSQL, nil, func(v []any) error {
		bot, _ := v[0].(string)
		host, _ := v[1].(string)
		key := [2]string{bot, host}
		i, ok := byKey[key]
		if !ok {
			i = len(out)
			byKey[key] = i
			out = append(out, report.WhatIfRow{Bot: bot, Host: host, TopPaths: report.WhatIfPaths{
				NewlyDisallowed: []report.PathRequests{}, NewlyAllowed: []report.PathRequests{}}})
		}
		w := &out[i]
		kind, _ := v[2].(string)
		path, _ := v[3].(string)
		n := numeric(v[4])
		switch kind {
		case "requests":
			w.Requests = n
		case "newly_disallowed":
			w.NewlyDisallowed = n
		case "newly_allowed":
			w.NewlyAllowed = n
		case "top_disallowed":
			w.TopPaths.NewlyDisallowed = append(w.TopPaths.NewlyDisallowed, report.PathRequests{Path: path, Requests: n})
		case "top_allowed":
			w.TopPaths.NewlyAllowed = append(w.TopPaths.NewlyAllowed, report.PathRequests{Path: path, Requests: n})
		}
		return nil
	}, whatIfTopPaths)
	if err != nil {
		return nil, fmt.Errorf("--what-if: %w", err)
	}
	if out == nil {
		out = []report.WhatIfRow{}
	}
	return out, nil
}

// stringOf returns the value of an (id, value) pair read from the requests
// table with the dict joined (the dict's value, or the inline one); the id
// (-1 for an inline value); and false when there is no value.
func stringOf(id, value any) (string, int32, bool) {
	s, ok := value.(string)
	if !ok {
		return "", -1, false
	}
	if id == nil {
		return s, -1, true
	}
	return s, int32(numeric(id)), true
}

// whatIfSQL counts, per bot and host, the requests a second audit with the
// proposed robots.txt would judge otherwise (see whatIf), and lists the top
// paths of each kind ($1 of them). One row per count or path:
// (bot, host, kind, path, n).
var whatIfSQL = strings.TrimSpace(`
WITH excluded AS (
    -- robots.txt's availability stands whatever the file says
    SELECT rid FROM availability WHERE unreachable
    UNION
    SELECT d.rid FROM during d JOIN robots_status p USING (period_id) WHERE p.kind = 'unavailable'
),
req AS (
    SELECT r.rid, r.bot_id, r.host_id, r.target_id, r.target,
        v.value IN ('disallowed', 'disallowed_in_grace') AS now_disallowed,
        w.user_agent_id IS NOT NULL OR w.user_agent IS NOT NULL OR w.target_id IS NOT NULL OR w.target IS NOT NULL AS file_disallows,
        r.robots_fetch
    FROM requests r
    JOIN dict v ON v.id = r.verdict_id
    LEFT JOIN whatif_disallowed w
        ON  r.user_agent_id IS NOT DISTINCT FROM w.user_agent_id AND r.user_agent IS NOT DISTINCT FROM w.user_agent
        AND r.target_id IS NOT DISTINCT FROM w.target_id AND r.target IS NOT DISTINCT FROM w.target
),
decided AS (
    SELECT req.*,
        file_disallows AND NOT robots_fetch AND rid NOT IN (SELECT rid FROM excluded) AS would_disallow
    FROM req
),
changed AS (
    SELECT bot_id, host_id, target_id, target,
        CASE WHEN would_disallow AND NOT now_disallowed THEN 'newly_disallowed'
             WHEN now_disallowed AND NOT would_disallow THEN 'newly_allowed' END AS kind
    FROM decided
),
counts AS (
    SELECT bot_id, host_id, 'requests' AS kind, NULL::VARCHAR AS path, count(*) AS n FROM decided GROUP BY ALL
    UNION ALL
    SELECT bot_id, host_id, kind, NULL, count(*) FROM changed WHERE kind IS NOT NULL GROUP BY ALL
),
paths AS (
    SELECT bot_id, host_id, kind, target_id, target, count(*) AS n FROM changed WHERE kind IS NOT NULL GROUP BY ALL
),
top AS (
    SELECT bot_id, host_id,
        CASE kind WHEN 'newly_disallowed' THEN 'top_disallowed' ELSE 'top_allowed' END AS kind,
        coalesce(t.value, p.target) AS path, n,
        row_number() OVER (PARTITION BY bot_id, host_id, kind ORDER BY n DESC, coalesce(t.value, p.target)) AS rank
    FROM paths p LEFT JOIN dict t ON t.id = p.target_id
),
picked AS (
    SELECT bot_id, host_id, kind, path, n, 0 AS rank FROM counts
    UNION ALL
    SELECT bot_id, host_id, kind, path, n, rank FROM top WHERE rank <= $1
),
ranked AS (
    SELECT *,
        coalesce(sum(n) FILTER (WHERE kind = 'newly_disallowed') OVER (PARTITION BY bot_id, host_id), 0) AS nd,
        coalesce(sum(n) FILTER (WHERE kind = 'newly_allowed') OVER (PARTITION BY bot_id, host_id), 0) AS na
    FROM picked
)
SELECT bot.value AS bot, coalesce(host.value, '') AS host, x.kind, x.path, x.n
FROM ranked x
JOIN dict bot ON bot.id = x.bot_id
LEFT JOIN dict host ON host.id = x.host_id
ORDER BY x.nd DESC, x.na DESC, bot.value, host.value, x.kind = 'requests' DESC, x.kind, x.rank
`)
