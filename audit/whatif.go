package audit

import (
	"context"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/queries"
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
// had been in effect for the whole period, and returns
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
	err := r.store.EachLarge(ctx, queries.SQL("whatif_pairs.sql"), nil, func(v []any) error {
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
	err = r.store.Each(ctx, queries.SQL("whatif.sql"), nil, func(v []any) error {
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
