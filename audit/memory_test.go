//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/audit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/internal/hostilegen"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/robots/history"
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
	dir := t.TempDir()
	log := filepath.Join(dir, "hostile.log")
	var buf bytes.Buffer
	if err := hostilegen.Write(&buf, hostilegen.Options{Lines: 30000, Agents: 20000, BotNames: 5, Addresses: 20000}); err != nil {
		t.Fatal(err)
	}
	if err := hostilegen.Write(&buf, hostilegen.Options{Lines: 200, PathBytes: 20000, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	robotsFile := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robotsFile, []byte(hostilegen.Robots), 0o644); err != nil {
		t.Fatal(err)
	}
	hist, err := history.Load(robotsFile, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	j := newJudge(mem, hist, robots.RFC9309, bots.NewIdentifier(), readyRanges(nil))
	defer j.release()
	// The strings the judge must intern whatever the budget (verdicts,
	// rules, the bot names, the file) take a few kilobytes.
	const forced = 4 << 10
	batches := 0
	_, err = ingest.Run(context.Background(), []string{log}, ingest.Options{BatchRows: batchRows, MaxLineBytes: 1 << 20}, func(rec arrow.RecordBatch) error {
		if err := j.add(rec); err != nil {
			return err
		}
		batches++
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
		if j.pending() >= flushRows {
			j.flush().Release()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	j.flush().Release()
	if j.botRows != 30200 {
		t.Errorf("judged %d bot rows, want 30200", j.botRows)
	}
	if j.bots > 6 {
		t.Errorf("%d bot states kept, want one per bot name (6)", j.bots)
	}
}
