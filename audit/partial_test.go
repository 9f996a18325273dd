//go:build duckdb_arrow

package audit

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
)

const (
	partialSampleRobots = "../testdata/sample/robots"
	partialSampleLog    = "../testdata/sample/access-2026-10.log.gz"
)

// partialRow is one judged request as PartialSchema and the view judged
// both hold it.
type partialRow struct {
	TS                       int64
	Host, Bot, File, Verdict string
	Identity                 string
	Line                     int64
	RobotsFetch, VisitBreach bool
	CrawlDelay               string // "" when NULL
	RateN, RateS             string
	ClientIP                 string
	Status                   string
	Operator                 string
	UserTriggered            bool
	UserAgent, Rule          string
}

// rowsOf appends the rows of rec, a batch of PartialSchema.
func rowsOf(t *testing.T, rows []partialRow, rec arrow.RecordBatch) []partialRow {
	t.Helper()
	if !rec.Schema().Equal(PartialSchema) {
		t.Fatalf("batch of schema %s", rec.Schema())
	}
	str := func(c int, i int) string {
		a := rec.Column(c)
		if a.IsNull(i) {
			return ""
		}
		return a.ValueStr(i)
	}
	ids := []string{"unverified", "verified", "spoofed"}
	for i := 0; i < int(rec.NumRows()); i++ {
		rows = append(rows, partialRow{
			TS:            int64(rec.Column(PartialTS).(*array.Timestamp).Value(i)),
			Host:          rec.Column(PartialHost).(*array.String).Value(i),
			Bot:           rec.Column(PartialBot).(*array.String).Value(i),
			Identity:      ids[rec.Column(PartialIdentity).(*array.Uint8).Value(i)],
			File:          rec.Column(PartialFile).(*array.String).Value(i),
			Line:          rec.Column(PartialLine).(*array.Int64).Value(i),
			Verdict:       rec.Column(PartialVerdict).(*array.String).Value(i),
			RobotsFetch:   rec.Column(PartialRobotsFetch).(*array.Boolean).Value(i),
			VisitBreach:   rec.Column(PartialVisitBreach).(*array.Boolean).Value(i),
			CrawlDelay:    str(PartialCrawlDelay, i),
			RateN:         str(PartialRateRequests, i),
			RateS:         str(PartialRateSeconds, i),
			ClientIP:      str(PartialClientIP, i),
			Status:        str(PartialStatus, i),
			Operator:      rec.Column(PartialOperator).(*array.String).Value(i),
			UserTriggered: rec.Column(PartialUserTriggered).(*array.Boolean).Value(i),
			UserAgent:     str(PartialUserAgent, i),
			Rule:          str(PartialRule, i),
		})
	}
	return rows
}

// judgedRows returns the rows of the view judged of a finished audit, with
// the judge's verdicts: a partial row leaves robots.txt's availability
// (disallowed_unreachable, allowed_unavailable; the sample month has
// robots.txt outages) to the combination, so the verdicts availability.sql
// put in their place are taken out of the audit's store first.
func judgedRows(t *testing.T, res *Result) []partialRow {
	t.Helper()
	ctx := context.Background()
	if err := res.materialize(ctx); err != nil {
		t.Fatal(err)
	}
	if err := res.store.Exec(ctx, "DELETE FROM availability"); err != nil {
		t.Fatal(err)
	}
	var rows []partialRow
	opt := func(v any) string {
		if v == nil {
			return ""
		}
		return fmt.Sprint(v)
	}
	err := res.store.Each(ctx, `SELECT epoch_us(ts), host, j.bot, identity, file, line, verdict, robots_fetch, visit_breach,
		crawl_delay, rate_requests, rate_seconds, client_ip, status, coalesce(b.operator, ''), b.user_triggered,
		user_agent, rule
		FROM judged j JOIN bots b ON b.bot = j.bot`, nil, func(v []any) error {
		rows = append(rows, partialRow{
			TS: v[0].(int64), Host: v[1].(string), Bot: v[2].(string), Identity: v[3].(string), File: v[4].(string),
			Line: v[5].(int64), Verdict: v[6].(string), RobotsFetch: v[7].(bool), VisitBreach: v[8].(bool),
			CrawlDelay: opt(v[9]), RateN: opt(v[10]), RateS: opt(v[11]), ClientIP: opt(v[12]), Status: opt(v[13]),
			Operator: v[14].(string), UserTriggered: v[15].(bool), UserAgent: opt(v[16]), Rule: opt(v[17]),
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func sortRows(rows []partialRow) {
	sort.Slice(rows, func(a, b int) bool {
		if rows[a].File != rows[b].File {
			return rows[a].File < rows[b].File
		}
		return rows[a].Line < rows[b].Line
	})
}

// splitSample writes the sample month's lines into n plain files, by
// turns of 1,000 lines, and returns their paths.
func splitSample(t *testing.T, n int) []string {
	t.Helper()
	f, err := os.Open(partialSampleLog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	var outs []*bufio.Writer
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("part-%d.log", i))
		o, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer o.Close()
		paths = append(paths, p)
		outs = append(outs, bufio.NewWriter(o))
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for i := 0; sc.Scan(); i++ {
		w := outs[(i/1000)%n]
		w.Write(sc.Bytes())
		w.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, w := range outs {
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// addInput adds the counts of b to a, as a combination of parts does.
func addInput(a *report.Input, b report.Input) {
	a.Files += b.Files
	a.Lines += b.Lines
	a.Parsed += b.Parsed
	a.Rejected += b.Rejected
	a.Unaudited += b.Unaudited
	a.Directives += b.Directives
	a.OutsidePeriod += b.OutsidePeriod
	a.BotRequests += b.BotRequests
	a.HumanRequests += b.HumanRequests
	for r, n := range b.RejectedReasons {
		a.RejectedReasons[r] += n
	}
	if b.From != nil && (a.From == nil || b.From.Before(*a.From)) {
		a.From = b.From
	}
	if b.To != nil && (a.To == nil || b.To.After(*a.To)) {
		a.To = b.To
	}
}

// TestPartialMatchesRun judges the sample month whole and split into
// files, part by part, and checks every row against the view judged of
// Run over the same files, and the parts' counts against Run's summary.
func TestPartialMatchesRun(t *testing.T) {
	from := time.Date(2026, 10, 3, 0, 0, 0, 0, time.UTC)
	to := time.Date(2026, 10, 28, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		parts int // 0: the sample file itself
		cfg   Config
	}{
		{"sample", 0, Config{Grace: 24 * time.Hour}},
		{"three parts", 3, Config{Grace: 24 * time.Hour}},
		{"period and no grace", 2, Config{From: from, To: to}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := []string{partialSampleLog}
			if tc.parts > 0 {
				logs = splitSample(t, tc.parts)
			}
			cfg := tc.cfg
			cfg.Robots = partialSampleRobots
			cfg.Profile = robots.RFC9309
			ctx := context.Background()
			res, err := Run(ctx, cfg, logs)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Close()
			want := judgedRows(t, res)

			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			cfg.Allocator = mem
			a, err := NewPartialAuditor(cfg)
			if err != nil {
				t.Fatal(err)
			}
			base := a.Base()
			if !reflect.DeepEqual(base.Robots, res.Summary.Robots) {
				t.Errorf("robots %+v, Run %+v", base.Robots, res.Summary.Robots)
			}
			var got []partialRow
			in := report.Input{RejectedReasons: map[string]int64{}}
			ids := map[string]int64{}
			whole := true
			for _, log := range logs {
				p, err := a.Judge(ctx, []string{log}, func(rec arrow.RecordBatch) error {
					got = rowsOf(t, got, rec)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(p.Files, []string{log}) {
					t.Errorf("files %q, want %q", p.Files, log)
				}
				addInput(&in, p.Input)
				for k, n := range p.Identities {
					ids[k] += n
				}
				whole = whole && p.WholeSeconds
			}
			mem.AssertSize(t, 0)
			if len(got) != len(want) || len(got) == 0 {
				t.Fatalf("%d rows, Run %d", len(got), len(want))
			}
			sortRows(got)
			sortRows(want)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
				}
			}
			w := res.Summary.Input
			w.Samples, w.InvalidClients, w.InvalidClientSamples = nil, nil, nil
			if !reflect.DeepEqual(in, w) {
				t.Errorf("input\n got %+v\nwant %+v", in, w)
			}
			if !reflect.DeepEqual(ids, res.Summary.Verification.Identities) {
				t.Errorf("identities %v, Run %v", ids, res.Summary.Verification.Identities)
			}
			if wantRes := res.Summary.Audit.TimeResolution == "1s"; whole != wantRes {
				t.Errorf("whole seconds %v, Run's resolution %s", whole, res.Summary.Audit.TimeResolution)
			}
			b := base.Audit
			b.TimeResolution = res.Summary.Audit.TimeResolution
			if b != res.Summary.Audit {
				t.Errorf("audit %+v, Run %+v", b, res.Summary.Audit)
			}
		})
	}
}

// TestPartialErrors checks the refusals and the nothing-to-audit checks
// of a partial audit.
func TestPartialErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := NewPartialAuditor(Config{Robots: "/nonexistent/robots"}); err == nil {
		t.Error("a missing --robots: no error")
	}
	a, err := NewPartialAuditor(Config{Robots: partialSampleRobots, From: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	sink := func(arrow.RecordBatch) error { return nil }
	if _, err := a.Judge(ctx, []string{"-"}, sink); err == nil {
		t.Error("standard input: no error")
	}
	if p, err := a.Judge(ctx, []string{"/nonexistent/access.log"}, sink); err == nil {
		t.Errorf("a missing log: no error, %+v", p)
	}
	p, err := a.Judge(ctx, []string{partialSampleLog}, func(rec arrow.RecordBatch) error {
		if rec.NumRows() > 0 {
			t.Errorf("%d rows outside the period", rec.NumRows())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.Input.OutsidePeriod != p.Input.Parsed || p.Input.Parsed == 0 {
		t.Errorf("outside %d of %d parsed", p.Input.OutsidePeriod, p.Input.Parsed)
	}
	err = a.CheckAudited(&p.Input, a.Base().Robots, *p.LogFrom, *p.LogTo, p.Hosts)
	if !errors.Is(err, ErrNothingToAudit) {
		t.Errorf("every request outside the period: %v", err)
	}
	stop := errors.New("stop")
	b, err := NewPartialAuditor(Config{Robots: partialSampleRobots})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Judge(ctx, []string{partialSampleLog}, func(arrow.RecordBatch) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("a sink error: %v", err)
	}
	p, err = b.Judge(ctx, []string{partialSampleLog}, sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.CheckAudited(&p.Input, b.Base().Robots, *p.LogFrom, *p.LogTo, p.Hosts); err != nil {
		t.Errorf("the sample: %v", err)
	}
}

// TestFoldBotRows checks that FoldBotRows folds a summary's rows as Run
// does, with the limit lowered so that the sample month has rows to fold.
func TestFoldBotRows(t *testing.T) {
	cfg := Config{Robots: partialSampleRobots, Grace: 24 * time.Hour}
	ctx := context.Background()
	res, err := Run(ctx, cfg, []string{partialSampleLog})
	if err != nil {
		t.Fatal(err)
	}
	all := res.Summary.Bots
	res.Close()
	defer func(n int) { maxSummaryBots = n }(maxSummaryBots)
	for _, limit := range []int{len(all), len(all) - 1, 7, 1} {
		maxSummaryBots = limit
		res, err := Run(ctx, cfg, []string{partialSampleLog})
		if err != nil {
			t.Fatal(err)
		}
		want, wantN := res.Summary.Bots, res.Summary.Input.FoldedBotRows
		res.Close()
		got, n := FoldBotRows(append([]report.BotRow(nil), all...))
		if n != wantN || !reflect.DeepEqual(got, want) {
			t.Errorf("limit %d: %d rows (%d folded), Run %d (%d folded)", limit, len(got), n, len(want), wantN)
		}
		if limit < len(all) && n == 0 {
			t.Errorf("limit %d of %d rows: nothing folded", limit, len(all))
		}
	}
}
