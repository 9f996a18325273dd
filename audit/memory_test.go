//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/internal/hostilegen"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/robots/history"
	"github.com/crawlaudit/crawlaudit/verify"
)

// shrinkBudgets sets the judge's memory budgets (judge.go) to tiny values
// for the test, and restores them after it.
func shrinkBudgets(t *testing.T, dict, ua, decisions, addrs, pendingBytes int) {
	t.Helper()
	old := []int{maxDictBytes, maxUABytes, maxDecisions, maxAddrCache, maxPendingBytes}
	maxDictBytes, maxUABytes, maxDecisions, maxAddrCache, maxPendingBytes = dict, ua, decisions, addrs, pendingBytes
	t.Cleanup(func() {
		maxDictBytes, maxUABytes, maxDecisions, maxAddrCache, maxPendingBytes = old[0], old[1], old[2], old[3], old[4]
	})
}

// shrinkSpill sets how many claims and bots rows a judge that spills holds
// (maxClaims, maxBotRows) for the test, and restores them after it.
func shrinkSpill(t *testing.T, claims, botRows int) {
	t.Helper()
	oldClaims, oldBots := maxClaims, maxBotRows
	maxClaims, maxBotRows = claims, botRows
	t.Cleanup(func() { maxClaims, maxBotRows = oldClaims, oldBots })
}

// shrinkDuckDB sets DuckDB's memory limits (store.MemoryLimit while the
// logs are read, store.MemoryLimitAfterRead after) for the test, and
// restores them after it.
func shrinkDuckDB(t *testing.T, whileRead, afterRead string) {
	t.Helper()
	oldLimit, oldAfter := store.MemoryLimit, store.MemoryLimitAfterRead
	store.MemoryLimit, store.MemoryLimitAfterRead = whileRead, afterRead
	t.Cleanup(func() { store.MemoryLimit, store.MemoryLimitAfterRead = oldLimit, oldAfter })
}

// hostileJudge returns a judge of hostilegen's robots.txt with ranges as
// its range lists (nil: none) and the log of opts for it, on an allocator
// that must be empty when the test ends; the judge is released first.
func hostileJudge(t *testing.T, ranges *verify.Ranges, opts ...hostilegen.Options) (j *judge, log string, mem memory.Allocator) {
	t.Helper()
	log, robotsFile := writeHostile(t, opts...)
	hist, err := history.Load(robotsFile, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { checked.AssertSize(t, 0) })
	j = newJudge(checked, hist, robots.RFC9309, bots.NewIdentifier(), readyRanges(ranges))
	t.Cleanup(j.release)
	return j, log, checked
}

// judgeLog has j judge log as the audit reads it, in batches of o's size:
// after each batch it calls check with the batch's number, then flush
// when the judge holds flushRows rows or more.
func judgeLog(t *testing.T, j *judge, log string, o ingest.Options, check func(batch int), flush func()) {
	t.Helper()
	batches := 0
	_, err := ingest.Run(context.Background(), []string{log}, o, func(rec arrow.RecordBatch) error {
		if err := j.add(rec); err != nil {
			return err
		}
		batches++
		check(batches)
		if j.pending() >= flushRows {
			flush()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readOutCSV returns the records of the CSV file name of the --out
// directory out, its header first.
func readOutCSV(t *testing.T, out, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestAuditBudgetsKeepOutputs: past its budgets the judge writes targets,
// User-Agents and addresses into the rows instead of the dict, forgets
// User-Agents and decisions, and makes claims again; none of it may change
// a byte of the outputs.
func TestAuditBudgetsKeepOutputs(t *testing.T) {
	dir := t.TempDir()
	robotsDir, log := writeGenerated(t, dir, "combined", false)
	run := func(name string) string {
		cfg := Config{Robots: robotsDir, Ingest: ingest.Options{BatchRows: 500}}
		res, err := Run(context.Background(), cfg, []string{log})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		var inline int64
		err = res.Store().Each(context.Background(), "SELECT count(*) FROM requests WHERE target IS NOT NULL OR user_agent IS NOT NULL OR client_ip IS NOT NULL", nil, func(v []any) error {
			inline = v[0].(int64)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if (name == "bounded") != (inline > 0) {
			t.Errorf("%s: %d rows with strings not in the dict", name, inline)
		}
		out := filepath.Join(dir, name)
		if err := res.WriteOut(context.Background(), out, BlockPolicy{}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := run("unbounded")
	shrinkBudgets(t, 0, 0, 1, 1, 1)
	// Claims and bots rows go to DuckDB after every batch of 500 rows.
	shrinkSpill(t, 1, 1)
	got := run("bounded")
	files, err := os.ReadDir(want)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no outputs")
	}
	// The time a file was made (block lists, reports) is the only
	// difference two runs may have.
	made := regexp.MustCompile(time.Now().UTC().Format("2006-01-02") + `T\d\d:\d\d:\d\dZ`)
	for _, f := range files {
		w, err := os.ReadFile(filepath.Join(want, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		g, err := os.ReadFile(filepath.Join(got, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(made.ReplaceAll(g, nil), made.ReplaceAll(w, nil)) {
			t.Errorf("%s differs with the budgets exhausted", f.Name())
		}
	}
}

// TestJudgeMemoryBounded feeds the judge a hostile log (every request a new
// path, User-Agent and address, some paths long) and checks after every
// batch that what it remembers stays within its budgets.
func TestJudgeMemoryBounded(t *testing.T) {
	const (
		dictBudget = 256 << 10
		uaBudget   = 128 << 10
		batchRows  = 1000
	)
	shrinkBudgets(t, dictBudget, uaBudget, 5000, 3000, 1<<20)
	j, log, _ := hostileJudge(t, nil,
		hostilegen.Options{Lines: 30000, Agents: 20000, BotNames: 5, Addresses: 20000},
		hostilegen.Options{Lines: 200, PathBytes: 20000, Seed: 2})
	// The strings the judge must intern whatever the budget (verdicts,
	// rules, the bot names, the file) take a few kilobytes.
	const forced = 4 << 10
	judgeLog(t, j, log, ingest.Options{BatchRows: batchRows, MaxLineBytes: 1 << 20}, func(batches int) {
		if j.dictBytes > dictBudget+maxInternBytes+dictEntryBytes+forced {
			t.Fatalf("batch %d: dict of %d bytes, budget %d", batches, j.dictBytes, dictBudget)
		}
		// The User-Agent states are checked between batches: one batch
		// may add its own.
		if j.uaBytes > uaBudget+batchRows*(uaStateBytes+200) {
			t.Fatalf("batch %d: User-Agent states of %d bytes, budget %d", batches, j.uaBytes, uaBudget)
		}
		if j.decisionsCached > maxDecisions || len(j.ipIDs) > maxAddrCache || len(j.claims.byAddr) > maxAddrCache || len(j.claims.byText) > maxAddrCache {
			t.Fatalf("batch %d: %d decisions, %d addresses, %d+%d claims cached", batches, j.decisionsCached, len(j.ipIDs), len(j.claims.byAddr), len(j.claims.byText))
		}
	}, func() { j.flush().Release() })
	j.flush().Release()
	if j.botRows != 30200 {
		t.Errorf("judged %d bot rows, want 30200", j.botRows)
	}
	if j.bots > 6 {
		t.Errorf("%d bot states kept, want one per bot name (6)", j.bots)
	}
}

// TestJudgeSpillsPerBotName feeds a judge that spills a log of 20,000
// invented bot names from 20,000 addresses and checks that it holds no
// claim, bots row or User-Agent state per bot name beyond its budgets, and
// that what it hands over is whole: every claim id a row refers to comes
// once, every bot name has one bots row, and the identity counts hold every
// bot request.
func TestJudgeSpillsPerBotName(t *testing.T) {
	const (
		batchRows = 1000
		claims    = 300
		botRows   = 200
		names     = 20000
	)
	shrinkBudgets(t, 256<<10, 128<<10, 5000, 3000, 1<<20)
	shrinkSpill(t, claims, botRows)
	ranges, err := verify.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	j, log, mem := hostileJudge(t, ranges,
		hostilegen.Options{Lines: 30000, Agents: names, Addresses: 20000},
		// Googlebot from many addresses: claims that depend on the address.
		hostilegen.Options{Lines: 5000, Addresses: 5000, Seed: 3})
	j.spillWhileJudging()

	var (
		referenced = map[int32]bool{} // claim ids of the judged rows
		stored     = map[int32]bool{} // claim ids handed over
		botNames   = map[string]int{} // bots rows per name
		botIDs     = map[int32]bool{} // bot ids of the judged rows
	)
	take := func(rec arrow.RecordBatch) {
		defer rec.Release()
		switch {
		case rec.Schema().Equal(RequestsSchema):
			for _, id := range rec.Column(rcClaimID).(*array.Int32).Int32Values() {
				referenced[id] = true
			}
			for _, id := range rec.Column(rcBotID).(*array.Int32).Int32Values() {
				botIDs[id] = true
			}
		case rec.Schema().Equal(ClaimsSchema):
			for _, id := range rec.Column(0).(*array.Int32).Int32Values() {
				if stored[id] {
					t.Errorf("claim %d handed over twice", id)
				}
				stored[id] = true
			}
		case rec.Schema().Equal(BotsSchema):
			col := rec.Column(0).(*array.String)
			for i := 0; i < col.Len(); i++ {
				botNames[col.Value(i)]++
			}
		default:
			t.Fatalf("batch of schema %s", rec.Schema())
		}
	}
	judgeLog(t, j, log, ingest.Options{BatchRows: batchRows}, func(batches int) {
		// A batch may add claims and bots rows of its own before the
		// caller spills them.
		if len(j.claims.list) > claims+batchRows || j.botsOut.len() > botRows+batchRows {
			t.Fatalf("batch %d: %d claims and %d bots rows held, budgets %d and %d", batches, len(j.claims.list), j.botsOut.len(), claims, botRows)
		}
		if j.bots != 0 || len(j.uas) > batchRows+(128<<10)/uaStateBytes {
			t.Fatalf("batch %d: %d bot states kept, %d User-Agent states", batches, j.bots, len(j.uas))
		}
	}, func() {
		take(j.flush())
		for _, rec := range j.spilled() {
			take(rec)
		}
	})
	take(j.flush())
	take(j.claims.batch(mem))
	take(j.botsOut.take())
	if j.claims.base == 0 {
		t.Error("no claim was spilled")
	}
	for id := range referenced {
		if !stored[id] {
			t.Errorf("a row refers to claim %d, which was never handed over", id)
			break
		}
	}
	for id := range botIDs {
		if botNames[j.dict[id]] != 1 {
			t.Errorf("bot %q has %d bots rows, want 1", j.dict[id], botNames[j.dict[id]])
			break
		}
	}
	if len(botNames) != len(botIDs) {
		t.Errorf("%d bots rows for %d bot names", len(botNames), len(botIDs))
	}
	var counted int64
	for _, n := range j.claims.identityCounts() {
		counted += n
	}
	if counted != j.botRows || j.botRows != 35000 {
		t.Errorf("identity counts hold %d requests of %d bot rows, want 35000", counted, j.botRows)
	}
}

// TestAuditFoldsBotRows: past maxSummaryBots rows, the summary keeps the
// first rows in its order and folds the rest into one row per host and
// identity whose counts are their sums; the database keeps every row.
func TestAuditFoldsBotRows(t *testing.T) {
	log, robotsFile := writeHostile(t, hostilegen.Options{Lines: 3000, Agents: 400, Addresses: 50})
	run := func(limit int) *Result {
		t.Helper()
		old := maxSummaryBots
		maxSummaryBots = limit
		defer func() { maxSummaryBots = old }()
		res, err := Run(context.Background(), Config{Robots: robotsFile}, []string{log})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Close() })
		return res
	}
	all := run(1 << 20).Summary
	if all.Input.FoldedBotRows != 0 || len(all.Bots) < 300 {
		t.Fatalf("%d rows, %d folded without a limit", len(all.Bots), all.Input.FoldedBotRows)
	}
	const limit = 100
	res := run(limit)
	got := res.Summary
	if got.Input.FoldedBotRows != int64(len(all.Bots)-limit) {
		t.Errorf("folded %d rows of %d, want %d", got.Input.FoldedBotRows, len(all.Bots), len(all.Bots)-limit)
	}
	if len(got.Bots) <= limit {
		t.Fatalf("%d rows, want the first %d and the folded ones", len(got.Bots), limit)
	}
	for i := 0; i < limit; i++ {
		if got.Bots[i] != all.Bots[i] {
			t.Fatalf("row %d differs: %+v, want %+v", i, got.Bots[i], all.Bots[i])
		}
	}
	type key struct{ host, identity string }
	want := map[key]*report.BotRow{}
	names := map[key]int{}
	for _, r := range all.Bots[limit:] {
		k := key{r.Host, r.Identity}
		w := want[k]
		if w == nil {
			w = &report.BotRow{Host: r.Host, Identity: r.Identity, FirstSeen: r.FirstSeen, LastSeen: r.LastSeen}
			want[k] = w
		}
		names[k]++
		w.Requests += r.Requests
		w.Disallowed += r.Disallowed
		w.RobotsFetches += r.RobotsFetches
		w.Unaudited += r.Unaudited
		w.IPs += r.IPs
		if r.FirstSeen.Before(w.FirstSeen) {
			w.FirstSeen = r.FirstSeen
		}
		if r.LastSeen.After(w.LastSeen) {
			w.LastSeen = r.LastSeen
		}
	}
	folded := got.Bots[limit:]
	if len(folded) != len(want) {
		t.Fatalf("%d folded rows, want %d (one per host and identity)", len(folded), len(want))
	}
	for _, r := range folded {
		k := key{r.Host, r.Identity}
		w := want[k]
		if w == nil {
			t.Fatalf("folded row %+v of no host and identity folded", r)
		}
		if wantName := fmt.Sprintf("(%d other bots)", names[k]); r.Bot != wantName {
			t.Errorf("folded row named %q, want %q", r.Bot, wantName)
		}
		if r.Requests != w.Requests || r.Disallowed != w.Disallowed || r.RobotsFetches != w.RobotsFetches ||
			r.Unaudited != w.Unaudited || r.IPs != w.IPs || !r.FirstSeen.Equal(w.FirstSeen) || !r.LastSeen.Equal(w.LastSeen) {
			t.Errorf("folded row %+v, want the sums %+v", r, *w)
		}
		if r.Verdict == "" {
			t.Errorf("folded row %q has no verdict", r.Bot)
		}
	}
	var rows int64
	err := res.Store().Each(context.Background(), "SELECT count(*) FROM summary_counted", nil, func(v []any) error {
		rows = v[0].(int64)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows != int64(len(all.Bots)) {
		t.Errorf("the database has %d bot rows, want all %d", rows, len(all.Bots))
	}
}

// TestStringIndex: every string added is found with its id, through the
// index's growth, and a string not added is not, whatever its hash.
func TestStringIndex(t *testing.T) {
	for _, n := range []int{0, 1, 767, 768, 5000} {
		x := newStringIndex()
		var dict []string
		for i := 0; i < n; i++ {
			dict = append(dict, fmt.Sprintf("s%d", i))
			x.add(dict, int32(i))
		}
		if x.len() != n {
			t.Errorf("n=%d: len %d", n, x.len())
		}
		for i, s := range dict {
			if id, ok := x.find(dict, s); !ok || id != int32(i) {
				t.Fatalf("n=%d: find(%q) = %d, %t; want %d", n, s, id, ok, i)
			}
		}
		for _, s := range []string{"", "s", fmt.Sprintf("s%d", n), "x0"} {
			if id, ok := x.find(dict, s); ok {
				t.Errorf("n=%d: find(%q) = %d, not added", n, s, id)
			}
		}
	}
}

// limitProbe is a Config.Timings writer that records Go's soft memory
// limit when each phase is reported.
type limitProbe struct{ byPhase map[string]int64 }

func (p *limitProbe) Write(b []byte) (int, error) {
	if f := bytes.Fields(b); len(f) > 0 {
		p.byPhase[string(f[0])] = debug.SetMemoryLimit(-1)
	}
	return len(b), nil
}

// TestAuditGoMemoryLimitAfterRead: the lower limit holds from the end of
// the reading to the end of the run, and the limit before is back after it;
// a limit above the current one changes nothing.
func TestAuditGoMemoryLimitAfterRead(t *testing.T) {
	prev := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(prev)
	for _, tc := range []struct {
		after, wantRead, wantSQL int64
	}{
		{after: 200 << 20, wantRead: 1 << 30, wantSQL: 200 << 20},
		{after: 2 << 30, wantRead: 1 << 30, wantSQL: 1 << 30},
		{after: 0, wantRead: 1 << 30, wantSQL: 1 << 30},
	} {
		p := &limitProbe{byPhase: map[string]int64{}}
		res, err := Run(context.Background(), Config{Robots: "../testdata/sample/robots", Timings: p, GoMemoryLimitAfterRead: tc.after},
			[]string{"../testdata/sample/access-2026-10.log.gz"})
		if err != nil {
			t.Fatal(err)
		}
		res.Close()
		if got := p.byPhase["ingest+judge+insert"]; got != tc.wantRead {
			t.Errorf("after %d: limit %d while reading, want %d", tc.after, got, tc.wantRead)
		}
		if got := p.byPhase["summary.sql"]; got != tc.wantSQL {
			t.Errorf("after %d: limit %d for the summary, want %d", tc.after, got, tc.wantSQL)
		}
		if got := debug.SetMemoryLimit(-1); got != 1<<30 {
			t.Errorf("after %d: limit %d after the run, want it back at %d", tc.after, got, 1<<30)
		}
	}
}

// TestAuditDuckDBMemoryLimitAfterRead: once the logs are read, DuckDB's
// memory_limit is store.MemoryLimitAfterRead (as DuckDB shows it: compared with
// a store given that limit).
func TestAuditDuckDBMemoryLimitAfterRead(t *testing.T) {
	if store.MemoryLimitAfterRead == "" {
		t.Skip("CRAWLAUDIT_DUCKDB_MEMORY is set: no limit after the reading")
	}
	res, err := Run(context.Background(), Config{Robots: "../testdata/sample/robots"}, []string{"../testdata/sample/access-2026-10.log.gz"})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var got, want string
	err = res.Store().Each(context.Background(), "SELECT current_setting('memory_limit')", nil, func(v []any) error {
		got, _ = v[0].(string)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Exec(context.Background(), "SET memory_limit = "+store.Quote(store.MemoryLimitAfterRead)); err != nil {
		t.Fatal(err)
	}
	if err := s.Each(context.Background(), "SELECT current_setting('memory_limit')", nil, func(v []any) error {
		want, _ = v[0].(string)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got != want || got == "" {
		t.Errorf("memory_limit after the run %q, want %q (%s)", got, want, store.MemoryLimitAfterRead)
	}
}

// writeHostile writes the logs of internal/hostilegen for opts, one after
// the other, into a file, and hostilegen's robots.txt beside it; it returns
// both paths.
func writeHostile(t *testing.T, opts ...hostilegen.Options) (log, robotsFile string) {
	t.Helper()
	dir := t.TempDir()
	var buf bytes.Buffer
	for _, o := range opts {
		if err := hostilegen.Write(&buf, o); err != nil {
			t.Fatal(err)
		}
	}
	log, robotsFile = filepath.Join(dir, "hostile.log"), filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(log, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(robotsFile, []byte(hostilegen.Robots), 0o644); err != nil {
		t.Fatal(err)
	}
	return log, robotsFile
}

// TestAuditOutLongURLsSpill: a log of long URLs (every one its own) goes
// through --out and --parquet under a memory limit that holds fewer than three of
// DuckDB's vectors of them. DuckDB cannot spill part of a vector, so the
// limit must grow with the longest string: without it violations.csv
// failed with "failed to pin block". Every disallowed request is a row of
// violations.csv, in full, and the CSV is read back in chunks that fit.
func TestAuditOutLongURLsSpill(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 40 MB of long URLs")
	}
	shrinkDuckDB(t, "48MB", "32MB")
	const lines, pathBytes = 700, 60000
	log, robotsFile := writeHostile(t, hostilegen.Options{Lines: lines, PathBytes: pathBytes})
	cfg := Config{Robots: robotsFile, SpillDir: t.TempDir(), Ingest: ingest.Options{MaxLineBytes: 200000}}
	res, err := Run(context.Background(), cfg, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	// EachLarge bounds its chunks by the longest string noted
	// (TestStoreChunkRowsLongStrings).
	if got := res.Store().Longest(); got < pathBytes {
		t.Fatalf("longest string noted %d, want at least %d", got, pathBytes)
	}
	// The Parquet dataset is read in slices of a few minutes: the driver
	// holds a slice whole.
	if wheres, err := res.parquetSlices(context.Background(), "requests"); err != nil || len(wheres) < 3 {
		t.Errorf("Parquet slices of %d rows of %d bytes: %d, %v; want at least 3", lines, pathBytes, len(wheres), err)
	}
	st, err := res.WriteParquet(context.Background(), filepath.Join(t.TempDir(), "parquet"))
	if err != nil || st.Rows != lines {
		t.Errorf("--parquet: %d rows, %v; want %d", st.Rows, err, lines)
	}
	out := filepath.Join(t.TempDir(), "out")
	if err := res.WriteOut(context.Background(), out, BlockPolicy{}); err != nil {
		t.Fatalf("--out: %v", err)
	}
	recs := readOutCSV(t, out, "violations.csv")
	var disallowed int64
	for _, b := range res.Summary.Bots {
		disallowed += b.Disallowed
	}
	if disallowed == 0 || int64(len(recs)-1) != disallowed {
		t.Errorf("violations.csv has %d rows, the summary %d disallowed requests", len(recs)-1, disallowed)
	}
	for _, r := range recs[1:] {
		for _, c := range r {
			if len(c) >= pathBytes {
				goto next
			}
		}
		t.Fatalf("a row of violations.csv has no URL of %d bytes: %.200q", pathBytes, r)
	next:
	}
}

// TestAuditOutBreachesSortedApart: a month read three times (every bot
// request three times in its second: a breach of Crawl-delay each) under a
// small DuckDB memory limit: breaches.csv, sorted in a step of its own, has
// a row per breach of the summary, in time order. (The failure this step
// avoids, "failed to pin block" under 256 MB, needs a 3 M-line month read
// three times: scripts/memory.sh out-thrice; at this scale DuckDB's fixed
// costs fail first.)
func TestAuditOutBreachesSortedApart(t *testing.T) {
	if testing.Short() {
		t.Skip("audits 300,000 lines")
	}
	shrinkDuckDB(t, "64MB", "96MB")
	dir := t.TempDir()
	cfg := genConfig()
	cfg.Lines = 100000
	robotsDir, log := writeMonth(t, dir, cfg, "combined", false)
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	thrice := filepath.Join(dir, "thrice.log")
	if err := os.WriteFile(thrice, bytes.Repeat(b, 3), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Robots: robotsDir, SpillDir: dir}, []string{thrice})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	out := filepath.Join(dir, "out")
	if err := res.WriteOut(context.Background(), out, BlockPolicy{}); err != nil {
		t.Fatalf("--out: %v", err)
	}
	recs := readOutCSV(t, out, "breaches.csv")
	var want int64
	for _, b := range res.Summary.Bots {
		// breaches.csv also lists the short gaps of crawlers that ignore
		// Crawl-delay, under a kind of their own.
		want += b.CrawlDelayBreaches + b.RequestRateBreaches + b.VisitTimeBreaches + b.CrawlDelayUnsupported
	}
	if len(recs) < 2 || int64(len(recs)-1) != want {
		t.Fatalf("breaches.csv has %d rows, the summary %d breaches", len(recs)-1, want)
	}
	for i := 2; i < len(recs); i++ {
		if recs[i][0] < recs[i-1][0] {
			t.Fatalf("breaches.csv row %d (%s) before row %d (%s): not in time order", i, recs[i][0], i-1, recs[i-1][0])
		}
	}
}
