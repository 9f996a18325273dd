//go:build duckdb_arrow

package audit

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/report/firewall"
)

// ReportOptions adjust Findings.
type ReportOptions struct {
	// Limits are the N of every top-N list; zero: report.DefaultLimits.
	Limits report.Limits
	// Tool names the program and version in the report.
	Tool string
	// BlockFiles are the block-list files written with the report (empty:
	// none, the report alone).
	BlockFiles []string
	// Now is the report's time; zero: time.Now.
	Now time.Time
}

// Findings gathers what report.html and report.md show (docs/reports.md) from
// the audit's database: the summary, per-day counts, the broken rules, the
// disallowed paths, the breaches, the robots.txt versions with their diffs
// and the block list made under block.
func (r *Result) Findings(ctx context.Context, block BlockPolicy, opt ReportOptions) (*report.Findings, error) {
	list, st, err := r.BlockList(ctx, block)
	if err != nil {
		return nil, err
	}
	return r.findings(ctx, blockFindings(list, st, block.normalized(), opt.BlockFiles, opt.limits().BlockEntries), opt)
}

// limits returns o.Limits, or report.DefaultLimits when they are zero.
func (o ReportOptions) limits() report.Limits {
	if o.Limits == (report.Limits{}) {
		return report.DefaultLimits
	}
	return o.Limits
}

// findings is Findings with what the report says of the block list made
// already (blockFindings): the list itself, millions of addresses in a
// hostile log, need not be held while the report's queries run.
func (r *Result) findings(ctx context.Context, block report.BlockFindings, opt ReportOptions) (*report.Findings, error) {
	if err := r.materialize(ctx); err != nil {
		return nil, err
	}
	lim := opt.limits()
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	f := &report.Findings{Summary: &r.Summary, Tool: opt.Tool, Generated: now.UTC(), Limits: lim}
	f.Days, f.Slot = days(r.Summary.Input.From, r.Summary.Input.To), 24*time.Hour
	daily := "report_daily.sql"
	if len(f.Days) == 1 {
		// One day drawn as one slot says nothing: its hours are drawn.
		f.Days, f.Slot = hours(r.Summary.Input.From, r.Summary.Input.To), time.Hour
		daily = "report_hourly.sql"
	}
	dayIndex := make(map[time.Time]int, len(f.Days))
	for i, d := range f.Days {
		dayIndex[d] = i
	}

	// The bot rows the report details: the table's first rows, and the
	// rows with most requests for the timeline.
	bots := r.Summary.Bots
	rows := make([]int, 0, min(len(bots), lim.Bots))
	for i := range bots[:min(len(bots), lim.Bots)] {
		rows = append(rows, i)
	}
	byRequests := make([]int, len(bots))
	for i := range byRequests {
		byRequests[i] = i
	}
	slices.SortStableFunc(byRequests, func(a, b int) int { return cmp.Compare(bots[b].Requests, bots[a].Requests) })
	timeline := byRequests[:min(len(byRequests), lim.TimelineBots)]
	keys := map[int]bool{}
	for _, i := range append(slices.Clone(rows), timeline...) {
		keys[i] = true
	}
	// Paths for the rows with most disallowed requests.
	byDisallowed := slices.Clone(byRequests)
	slices.SortStableFunc(byDisallowed, func(a, b int) int { return cmp.Compare(bots[b].Disallowed, bots[a].Disallowed) })
	pathRows := map[int]bool{}
	for _, i := range byDisallowed {
		if bots[i].Disallowed == 0 {
			break
		}
		f.PathBotsTotal++
		if len(pathRows) < lim.PathBots {
			pathRows[i] = true
			keys[i] = true
		}
	}
	var values [][]any
	for i := range keys {
		b := bots[i]
		values = append(values, []any{i, b.Bot, b.Host, b.Identity, pathRows[i]})
	}
	if err := r.store.Exec(ctx, `CREATE OR REPLACE TEMP TABLE report_rows (pos INTEGER, bot VARCHAR, host VARCHAR, identity VARCHAR, paths BOOLEAN)`); err != nil {
		return nil, err
	}
	var err error
	if err = r.store.InsertValues(ctx, "report_rows", values); err != nil {
		return nil, err
	}

	// One pass over every request for the per-day counts, the versions
	// and the rules.
	if err := r.store.Exec(ctx, queries.SQL("report_base.sql")); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	defer r.store.Exec(context.WithoutCancel(ctx), "DROP VIEW IF EXISTS report_slots; DROP TABLE IF EXISTS report_base; DROP TABLE IF EXISTS report_rows")

	// Per day (or hour): the counts per slot, then the timeline, one
	// query for both slot sizes.
	if err := r.store.Exec(ctx, queries.SQL(daily)); err != nil {
		return nil, fmt.Errorf("report: per day: %w", err)
	}
	n := len(f.Days)
	perRow := map[int]*[7][]int64{} // the six counts and the bytes
	err = r.store.Each(ctx, queries.SQL("report_timeline.sql"), nil, func(v []any) error {
		pos := int(numeric(v[0]))
		day, _ := v[1].(time.Time)
		d, ok := dayIndex[day.UTC().Truncate(f.Slot)]
		if !ok {
			return nil
		}
		s := perRow[pos]
		if s == nil {
			s = new([7][]int64)
			for k := range s {
				s[k] = make([]int64, n)
			}
			perRow[pos] = s
		}
		for k := range s {
			s[k][d] += numeric(v[2+k])
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("report: per day: %w", err)
	}
	series := func(pos, k int) []int64 {
		if s := perRow[pos]; s != nil {
			return s[k]
		}
		return make([]int64, n)
	}
	for _, i := range rows {
		f.Rows = append(f.Rows, report.BotFindings{BotRow: bots[i], Requests: series(i, 0), Disallowed: series(i, 1)})
	}
	for _, i := range timeline {
		f.Timeline = append(f.Timeline, report.Series{Label: bots[i].Label(), Values: series(i, 0), Total: bots[i].Requests})
		f.TimelineBytes = append(f.TimelineBytes, report.Series{Label: bots[i].Label(), Values: series(i, 6), Total: bots[i].Bytes})
	}
	f.BytesPerDay = report.Series{Label: "all bots", Values: series(-1, 6)}
	for _, x := range f.BytesPerDay.Values {
		f.BytesPerDay.Total += x
	}
	for k, label := range []string{"disallowed", "disallowed in grace", "crawl-delay breaches", "request-rate breaches", "visit-time breaches"} {
		s := report.Series{Label: label, Values: series(-1, k+1)}
		for _, x := range s.Values {
			s.Total += x
		}
		f.PerDay = append(f.PerDay, s)
	}

	// User-Agents of the table's rows.
	agents := map[int][]report.Count{}
	agentTotals := map[int]int64{}
	err = r.store.Each(ctx, queries.SQL("report_agents.sql"), nil, func(v []any) error {
		pos := int(numeric(v[0]))
		agents[pos] = append(agents[pos], report.Count{Value: report.Cut(str(v[1]), lim.Chars), N: numeric(v[2])})
		agentTotals[pos] = numeric(v[3])
		return nil
	}, lim.UserAgents)
	if err != nil {
		return nil, fmt.Errorf("report: user agents: %w", err)
	}
	for k := range f.Rows {
		f.Rows[k].UserAgents = agents[rows[k]]
		f.Rows[k].UserAgentsTotal = agentTotals[rows[k]]
	}

	// Disallowed paths.
	paths := map[int]*report.BotPaths{}
	err = r.store.Each(ctx, queries.SQL("report_paths.sql"), nil, func(v []any) error {
		pos := int(numeric(v[0]))
		p := paths[pos]
		if p == nil {
			b := bots[pos]
			p = &report.BotPaths{Label: b.Label(), Bot: b.Bot, Identity: b.Identity, Host: b.Host, Disallowed: b.Disallowed}
			paths[pos] = p
		}
		p.Paths = append(p.Paths, report.PathCount{Path: report.Cut(str(v[1]), lim.Chars), N: numeric(v[2]), Rule: report.Cut(str(v[3]), lim.Chars), Line: int(numeric(v[4]))})
		p.PathsTotal = numeric(v[5])
		return nil
	}, lim.Paths)
	if err != nil {
		return nil, fmt.Errorf("report: paths: %w", err)
	}
	for _, i := range byDisallowed {
		if p := paths[i]; p != nil {
			f.Paths = append(f.Paths, *p)
		}
	}

	// Labels of bot rows by bot, host and identity.
	label := func(bot, host, identity string) string {
		for i := range bots {
			if bots[i].Bot == bot && bots[i].Host == host && bots[i].Identity == identity {
				return bots[i].Label()
			}
		}
		b := report.BotRow{Bot: bot, Identity: identity}
		return b.Label()
	}
	labels := map[[3]string]string{}
	labelOf := func(bot, host, identity string) string {
		k := [3]string{bot, host, identity}
		l, ok := labels[k]
		if !ok {
			l = label(bot, host, identity)
			labels[k] = l
		}
		return l
	}

	// Broken rules.
	starts := map[string]time.Time{}
	if r.hist != nil {
		for _, v := range r.hist.All() {
			starts[v.Name] = v.Start
		}
	}
	err = r.store.Each(ctx, queries.SQL("report_rules.sql"), nil, func(v []any) error {
		rank := int(numeric(v[0]))
		if len(f.Rules) < rank {
			version := str(v[2])
			f.Rules = append(f.Rules, report.BrokenRule{Host: str(v[1]), Version: version, VersionStart: starts[version],
				Line: int(numeric(v[3])), Rule: report.Cut(str(v[4]), lim.Chars), Requests: numeric(v[5]), InGrace: numeric(v[6]), BotsTotal: int(numeric(v[7]))})
			f.RulesTotal = int(numeric(v[8]))
		}
		br := &f.Rules[len(f.Rules)-1]
		br.Bots = append(br.Bots, report.Count{Value: labelOf(str(v[9]), br.Host, str(v[10])), N: numeric(v[11])})
		return nil
	}, lim.Rules, lim.RuleBots)
	if err != nil {
		return nil, fmt.Errorf("report: rules: %w", err)
	}

	// Breaches.
	err = r.store.Each(ctx, queries.SQL("report_breaches.sql"), nil, func(v []any) error {
		g := report.BreachGroup{Bot: str(v[0]), Host: str(v[1]), Identity: str(v[2]), Kind: str(v[3]), Limit: report.Cut(str(v[4]), lim.Chars),
			Unit: str(v[5]), N: numeric(v[6]), Worst: str(v[7]), Median: str(v[8])}
		g.Label = labelOf(g.Bot, g.Host, g.Identity)
		g.First, _ = v[9].(time.Time)
		g.Last, _ = v[10].(time.Time)
		g.First, g.Last = g.First.UTC(), g.Last.UTC()
		f.BreachesTotal = int(numeric(v[11]))
		f.Breaches = append(f.Breaches, g)
		return nil
	}, lim.Breaches)
	if err != nil {
		return nil, fmt.Errorf("report: breaches: %w", err)
	}

	f.CrawlDelayIgnored = crawlDelayNotes(r.Summary.Bots, r.operators)

	// robots.txt versions.
	if err := r.versions(ctx, f); err != nil {
		return nil, err
	}

	if f.Preferences, err = r.prefFindings(ctx, lim); err != nil {
		return nil, err
	}

	f.Block = block
	if bl := r.Summary.Blocklist; bl != nil {
		f.Block.HeldBackVerified, f.Block.HeldBack = bl.HeldBackVerified, bl.HeldBackCrawlers
	}
	f.Headlines = report.Headlines(f)
	return f, nil
}

// versions fills f.Versions from the history, with the requests each
// version judged and the diff from the version before on its host.
func (r *Result) versions(ctx context.Context, f *report.Findings) error {
	if r.hist == nil {
		return nil
	}
	type counts struct{ requests, disallowed int64 }
	judged := map[string]counts{}
	err := r.store.Each(ctx, queries.SQL("report_versions.sql"), nil, func(v []any) error {
		judged[str(v[0])] = counts{numeric(v[1]), numeric(v[2])}
		return nil
	})
	if err != nil {
		return fmt.Errorf("report: versions: %w", err)
	}
	var from, to time.Time
	if in := r.Summary.Input; in.From != nil && in.To != nil {
		from, to = *in.From, *in.To
	}
	var prev []string
	prevHost := "\x00"
	all := r.hist.All()
	number := 0
	for i, v := range all {
		if err := ctx.Err(); err != nil {
			return err
		}
		lines := report.SplitLines(v.Data)
		rv := report.RobotsVersion{Host: v.Host, Name: v.Name, Start: v.Start.UTC(), Lines: len(lines), Bytes: len(v.Data),
			Rules: countRules(lines), Requests: judged[v.Name].requests, Disallowed: judged[v.Name].disallowed}
		if v.Start.IsZero() {
			rv.Start = time.Time{}
		}
		// A version counts when it was in effect during the period: it
		// judged requests, or it went live before the period ended and the
		// host's next version after the period began.
		next := time.Time{}
		if i+1 < len(all) && all[i+1].Host == v.Host {
			next = all[i+1].Start
		}
		inPeriod := rv.Requests > 0 || from.IsZero() ||
			(!v.Start.After(to) && (next.IsZero() || next.After(from)))
		first := v.Host != prevHost
		if first {
			number = 0
		}
		number++
		rv.Number = number
		if !first {
			if t, ok := uncertainSince(all[i-1], v); ok {
				rv.NotBefore = t
			}
		}
		prevLines := prev
		prev, prevHost = lines, v.Host
		if !inPeriod {
			continue
		}
		rv.First = first
		if !first {
			rv.Diff, rv.DiffCut, rv.Added, rv.Removed = report.LineDiff(prevLines, lines, 2, f.Limits.DiffLines)
			for k := range rv.Diff {
				rv.Diff[k].Text = report.Cut(rv.Diff[k].Text, f.Limits.Chars)
			}
		}
		f.Versions = append(f.Versions, rv)
	}
	f.VersionsTotal = len(f.Versions)
	if n := f.Limits.Versions; len(f.Versions) > n {
		f.Versions = f.Versions[len(f.Versions)-n:]
	}
	return nil
}

// countRules counts the Allow and Disallow lines of a robots.txt.
func countRules(lines []string) int {
	n := 0
	for _, l := range lines {
		key, _, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "allow", "disallow":
			n++
		}
	}
	return n
}

// blockFindings says what the block list l holds, the entries with most
// findings first.
func blockFindings(l *firewall.List, st firewall.Stats, p BlockPolicy, files []string, limit int) report.BlockFindings {
	b := report.BlockFindings{Files: files, Kinds: p.On, Min: p.Min, Verified: p.Verified, AllowList: p.AllowFile,
		Addresses: len(l.Entries), Blocks: len(l.Blocks), Allowed: st.Allowed, NotBlockable: st.NotBlockable, Invalid: st.Invalid}
	b.Predating = l.Meta.Predating
	for _, i := range topEntries(l.Entries, limit) {
		e := l.Entries[i]
		be := report.BlockEntry{Addr: e.Addr.String(), Reasons: firewall.CountsText(e.Counts), First: e.FirstSeen.UTC(), Last: e.LastSeen.UTC()}
		for _, c := range e.Claims {
			be.Claims = append(be.Claims, strings.TrimSpace(c.Bot+" "+c.IdentityText()))
		}
		b.Entries = append(b.Entries, be)
	}
	return b
}

// topEntries returns the indexes of the limit entries with most requests
// counted, most first, an earlier entry first among equals (the order of a
// stable sort), without sorting or copying the entries: a block list may
// hold millions.
func topEntries(entries []firewall.Entry, limit int) []int {
	total := func(e *firewall.Entry) int64 {
		var t int64
		for _, c := range e.Counts {
			t += c
		}
		return t
	}
	var top []int
	var totals []int64 // of top
	for i := range entries {
		t := total(&entries[i])
		if len(top) == limit && (limit == 0 || t <= totals[len(totals)-1]) {
			continue
		}
		// After every entry with as many or more: they came first.
		at, _ := slices.BinarySearchFunc(totals, t, func(have, want int64) int {
			if have >= want {
				return -1
			}
			return 1
		})
		top, totals = slices.Insert(top, at, i), slices.Insert(totals, at, t)
		if len(top) > limit {
			top, totals = top[:limit], totals[:limit]
		}
	}
	return top
}

// days returns the UTC days from from to to, both included (none when
// either is nil), at most 366 of them: a longer period is shown by its
// last year.
func days(from, to *time.Time) []time.Time {
	if from == nil || to == nil || to.Before(*from) {
		return nil
	}
	first := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
	last := time.Date(to.Year(), to.Month(), to.Day(), 0, 0, 0, 0, time.UTC)
	if last.Sub(first) > 365*24*time.Hour {
		first = last.AddDate(0, 0, -365)
	}
	var ds []time.Time
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		ds = append(ds, d)
	}
	return ds
}

// hours returns the UTC hours from from's to to's, both included (none
// when either is nil).
func hours(from, to *time.Time) []time.Time {
	if from == nil || to == nil || to.Before(*from) {
		return nil
	}
	var hs []time.Time
	for h := from.UTC().Truncate(time.Hour); !h.After(*to); h = h.Add(time.Hour) {
		hs = append(hs, h)
	}
	return hs
}

// numeric reads a count or number of a query: integers of any width,
// a HUGEINT as *big.Int, a float; anything else is 0.
func numeric(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case int8:
		return int64(x)
	case uint64:
		return int64(x)
	case uint32:
		return int64(x)
	case uint16:
		return int64(x)
	case uint8:
		return int64(x)
	case int:
		return int64(x)
	case float64:
		return int64(x)
	case interface{ Int64() int64 }:
		return x.Int64()
	}
	return 0
}

// str reads a string of a query; NULL is "".
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// crawlDelayNotes returns the reports' notes on the bots with
// crawl_delay_unsupported gaps: one per bot name, most gaps first, with
// what its operator's rule says of its own crawl-rate control.
func crawlDelayNotes(rows []report.BotRow, rules *bots.Rules) []report.CrawlDelayNote {
	byBot := map[string]*report.CrawlDelayNote{}
	var out []*report.CrawlDelayNote
	for _, r := range rows {
		if r.CrawlDelayUnsupported == 0 || r.Bot == "" {
			continue
		}
		n := byBot[r.Bot]
		if n == nil {
			n = &report.CrawlDelayNote{Bot: r.Bot, Operator: r.Operator}
			if o, ok := rules.Operator(r.Operator); ok && o.CrawlDelay != nil {
				n.Control, n.ControlURL, n.Source = o.CrawlDelay.Control, o.CrawlDelay.ControlURL, o.CrawlDelay.Source
			}
			byBot[r.Bot] = n
			out = append(out, n)
		}
		n.N += r.CrawlDelayUnsupported
	}
	slices.SortStableFunc(out, func(a, b *report.CrawlDelayNote) int {
		return cmp.Or(cmp.Compare(b.N, a.N), strings.Compare(a.Bot, b.Bot))
	})
	notes := make([]report.CrawlDelayNote, len(out))
	for i, n := range out {
		notes[i] = *n
	}
	return notes
}
