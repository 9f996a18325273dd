package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/report"
)

// pqTree lists the files below dir with their sizes and modification
// times: equal lists mean nothing was replaced.
func pqTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// pqNames returns the names in dir.
func pqNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestAuditParquet runs `crawlaudit audit --parquet DIR` on the sample month
// end to end: the dataset read back by DuckDB with hive
// partitioning gives summary.json's requests, disallowed requests and
// breaches per bot, host and identity.
func TestAuditParquet(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "judged")
	code, stdout, stderr := runCLI(t, "", "audit", "-q", "--json", "--parquet", dir, "--robots", sampleRobots, sampleLog)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum report.Summary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatal(err)
	}
	if got := pqNames(t, top); !slices.Equal(got, []string{"judged"}) {
		t.Errorf("beside the dataset: %q", got)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := map[string]string{}
	err = db.Each(ctx, `SELECT bot || '|' || coalesce(host, '') || '|' || identity,
		format('{} {} {} {} {} {}', count(*), count(*) FILTER (WHERE verdict = 'disallowed'),
			count(*) FILTER (WHERE verdict = 'disallowed_in_grace'), count(*) FILTER (WHERE crawl_delay_breach),
			count(*) FILTER (WHERE request_rate_breach), count(*) FILTER (WHERE visit_breach))
		FROM read_parquet('`+filepath.Join(dir, "**", "*.parquet")+`', hive_partitioning = true) GROUP BY ALL`, nil, func(v []any) error {
		got[v[0].(string)] = v[1].(string)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(sum.Bots) || len(got) == 0 {
		t.Errorf("%d bot rows in the dataset, %d in summary.json", len(got), len(sum.Bots))
	}
	for _, b := range sum.Bots {
		key := b.Bot + "|" + b.Host + "|" + b.Identity
		want := fmt.Sprintf("%d %d %d %d %d %d", b.Requests, b.Disallowed, b.DisallowedInGrace, b.CrawlDelayBreaches, b.RequestRateBreaches, b.VisitTimeBreaches)
		if got[key] != want {
			t.Errorf("%s: dataset %q, summary.json %q", key, got[key], want)
		}
	}

	// Without --json, stderr says what was written.
	code, _, stderr = runCLI(t, "", "audit", "-q", "--parquet", dir, "--robots", sampleRobots, sampleLog)
	if code != exitOK {
		t.Fatalf("second run: exit %d: %s", code, stderr)
	}
	if want := fmt.Sprintf("Wrote %d bot requests in ", sum.Input.BotRequests); !strings.Contains(stderr, want) || !strings.Contains(stderr, " Parquet files to "+dir) {
		t.Errorf("stderr %q does not say %q… Parquet files to %s", stderr, want, dir)
	}
}

// TestAuditParquetKeptOnFailure: like --out and --db (a
// failed run must not destroy the last good results), the dataset is replaced only by a run
// that succeeds, and with --out: an input error without --keep-going, or
// --out failing, leave it as it was and nothing beside it; --keep-going
// replaces it. A directory crawlaudit did not write is refused before the
// audit.
func TestAuditParquetKeptOnFailure(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "judged")
	out := filepath.Join(top, "out")
	good := []string{"audit", "-q", "--json", "--parquet", dir, "--out", out, "--robots", sampleRobots, sampleLog}
	if code, _, stderr := runCLI(t, "", good...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := pqTree(t, dir)
	sample, err := os.ReadFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	inputs := t.TempDir()
	truncated := filepath.Join(inputs, "cut.log.gz")
	if err := os.WriteFile(truncated, sample[:len(sample)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(inputs, "a-file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"a truncated log", append(slices.Clone(good), truncated)},
		{"--out cannot be written", []string{"audit", "-q", "--json", "--parquet", dir, "--out", filepath.Join(notDir, "out"), "--robots", sampleRobots, sampleLog}},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want 2: %s", c.name, code, stderr)
		}
		if got := pqTree(t, dir); got != before {
			t.Errorf("%s: the dataset changed", c.name)
		}
		if got := pqNames(t, top); !slices.Equal(got, []string{"judged", "out"}) {
			t.Errorf("%s: left beside the dataset: %q", c.name, got)
		}
	}
	code, _, stderr := runCLI(t, "", append(slices.Clone(good), "--keep-going", truncated)...)
	if code != exitOK {
		t.Fatalf("--keep-going: exit %d: %s", code, stderr)
	}
	if got := pqTree(t, dir); got == before {
		t.Error("--keep-going: the dataset was not replaced")
	}

	foreign := filepath.Join(top, "mine")
	if err := os.MkdirAll(foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "audit", "-q", "--json", "--parquet", foreign, "--robots", sampleRobots, sampleLog)
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "refusing to replace") {
		t.Errorf("a foreign --parquet directory: exit %d, stdout %d bytes, stderr %q; want 2, nothing, a refusal", code, len(stdout), stderr)
	}
	if got := pqNames(t, foreign); !slices.Equal(got, []string{"notes.txt"}) {
		t.Errorf("the foreign directory now holds %q", got)
	}
}
