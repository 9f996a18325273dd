package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/auditflags"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/report"
)

func TestMain(m *testing.M) {
	flag.Parse()
	if !verboseBeam() {
		slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 1})))
	}
	beam.Init()
	removeTemp := privateTempDir()
	code := m.Run()
	removeTemp()
	os.Exit(code)
}

const (
	sampleRobots = "../../testdata/sample/robots"
	sampleLog    = "../../testdata/sample/access-2026-10.log.gz"
)

// auditJSON returns summary.json as `crawlaudit audit --json` prints it
// for the same flags and logs.
func auditJSON(t *testing.T, opt options, logs []string) []byte {
	t.Helper()
	summary, _ := auditOutputs(t, opt, logs)
	return summary
}

// auditOutputs returns summary.json as `crawlaudit audit --json` prints it,
// and agents.json as `crawlaudit audit --out` writes it, for the same
// flags and logs.
func auditOutputs(t *testing.T, opt options, logs []string) (summary, agents []byte) {
	t.Helper()
	cfg, err := opt.config()
	if err != nil {
		t.Fatal(err)
	}
	res, err := audit.Run(context.Background(), cfg, logs)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var b, a bytes.Buffer
	if err := report.WriteJSON(&b, &res.Summary); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteAgents(&a, &res.Summary); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), a.Bytes()
}

// beamOutputs returns summary.json and agents.json as the pipeline on
// Prism, in process, writes them into --out.
func beamOutputs(t *testing.T, opt options, logs []string) (summary, agents []byte) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	o := &cliOptions{options: opt, out: dir}
	if err := runAudit(context.Background(), o, logs, "prism", io.Discard); err != nil {
		t.Fatal(err)
	}
	summary, err := os.ReadFile(filepath.Join(dir, summaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if agents, err = os.ReadFile(filepath.Join(dir, agentsFile)); err != nil {
		t.Fatal(err)
	}
	return summary, agents
}

// beamJSON returns summary.json of the pipeline on Prism, in process.
func beamJSON(t *testing.T, opt options, logs []string) []byte {
	t.Helper()
	var b bytes.Buffer
	o := &cliOptions{options: opt, json: true}
	if err := runAudit(context.Background(), o, logs, "prism", &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// diffLines returns the first lines where a and b differ, with context.
func diffLines(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	var out strings.Builder
	shown := 0
	for i := 0; i < max(len(al), len(bl)) && shown < 20; i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			fmt.Fprintf(&out, "line %d:\n  audit %s\n  beam  %s\n", i+1, x, y)
			shown++
		}
	}
	return out.String()
}

// generateMonth writes a generated month on two hosts into dir: the
// robots.txt history under dir/robots, and the log split into several
// files (JSON lines plain and gzip, and combined, each with requests from
// the whole month; one empty), with some /robots.txt responses turned into 503, 429 and 404
// (periods in which robots.txt was unreachable or unavailable) and some
// lines that are not requests. It returns the robots.txt directory and
// the logs.
func generateMonth(t *testing.T, dir string, lines int) (string, []string) {
	t.Helper()
	hosts := []string{"a.example", "b.example"}
	robotsDir := filepath.Join(dir, "robots")
	for _, h := range hosts {
		if err := os.MkdirAll(filepath.Join(robotsDir, h), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, v := range loggen.Robots(h) {
			if err := os.WriteFile(filepath.Join(robotsDir, h, v.FileName()), []byte(v.Text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	type out struct {
		f    *os.File
		w    loggen.RequestWriter
		gzip bool
	}
	var outs []*out
	var logs []string
	for i, gz := range []bool{false, true, false, false} {
		// JSON lines carry the host; the third file is combined, without
		// one: its requests are for no host, and unaudited.
		format := "jsonl"
		if i == 2 {
			format = "combined"
		}
		name := filepath.Join(dir, fmt.Sprintf("access-%d.log", i))
		if gz {
			name += ".gz"
		}
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		newWriter := loggen.NewWriter
		if gz {
			newWriter = loggen.NewGzipWriter
		}
		w, err := newWriter(f, format)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, &out{f, w, gz})
		logs = append(logs, name)
	}
	empty := filepath.Join(dir, "access-empty.log")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	logs = append(logs, empty)
	cfg := loggen.Config{Seed: 15, Start: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		Lines: lines, Hosts: hosts,
		AIReferrals: 0.05} // referrals by Referer and by utm_source, split over the files
	n, fetches := 0, 0
	err := loggen.Generate(cfg, func(r *loggen.Request) error {
		o := outs[(n/700)%len(outs)]
		n++
		if string(r.Target) == "/robots.txt" {
			fetches++
			switch {
			case fetches%9 == 1:
				r.Status = 503
			case fetches%13 == 2:
				r.Status = 404
			case fetches%17 == 3:
				r.Status = 429
			}
		}
		if err := o.w.Write(r); err != nil {
			return err
		}
		if n%4001 == 0 && !o.gzip {
			// The writer has written the line whole: a line that is not
			// a request goes after it.
			if _, err := io.WriteString(o.f, "this is not a request\n"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outs {
		if err := o.w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := o.f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return robotsDir, logs
}

// TestPipelineEqualsAudit runs the pipeline on Prism and checks that its
// summary.json equals `crawlaudit audit --json`'s, byte for byte (every
// bot row field, the input counts, robots_status, changes, ...), and its
// agents.json `crawlaudit audit --out`'s, on the sample month and on a
// generated month with two hosts and five files.
func TestPipelineEqualsAudit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pipelines on Prism")
	}
	dir := t.TempDir()
	genRobots, genLogs := generateMonth(t, dir, 40000)
	// The 2015 Apache log under a Crawl-delay that Google's crawlers
	// ignore: the short gaps of Googlebot are crawl_delay_unsupported.
	delayRobots := filepath.Join(dir, "crawl-delay.txt")
	if err := os.WriteFile(delayRobots, []byte("User-agent: *\nCrawl-delay: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// ../shared/data beside the repository (this module is two levels
	// down in it, so shareddata.Root, which stops at this go.mod, misses it).
	apache2015 := filepath.Join("..", "..", "..", "shared", "data", "real-logs", "elastic-apache-semicomplete-2015", "apache_logs.gz")
	_, err := os.Stat(apache2015)
	haveShared := err == nil
	for _, tc := range []struct {
		name string
		opt  options
		logs []string
		// check says what the case must exercise.
		check func(t *testing.T, s *report.Summary)
	}{
		{"sample month", options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour}}, []string{sampleLog}, func(t *testing.T, s *report.Summary) {
			if len(s.Bots) < 10 {
				t.Errorf("%d bot rows", len(s.Bots))
			}
		}},
		{"generated month, two hosts, five files", options{Values: auditflags.Values{Robots: genRobots, Grace: 24 * time.Hour}}, genLogs, func(t *testing.T, s *report.Summary) {
			hosts := map[string]bool{}
			var unreachable, unavailable, delay, rate int64
			for _, r := range s.Bots {
				hosts[r.Host] = true
				unreachable += r.DisallowedUnreachable
				unavailable += r.AllowedUnavailable
				delay += r.CrawlDelayBreaches
				rate += r.RequestRateBreaches
			}
			if len(hosts) != 3 || s.Input.Files != 5 || s.Input.Unaudited == 0 || s.Input.Rejected == 0 || len(s.RobotsStatus) == 0 ||
				unreachable == 0 || unavailable == 0 || delay == 0 || rate == 0 || !referredBy(s, "OpenAI") || !referredBy(s, "Perplexity") {
				t.Errorf("hosts %v, files %d, rejected %d, %d periods, unreachable %d, unavailable %d, delay %d, rate %d, referrals %+v",
					hosts, s.Input.Files, s.Input.Rejected, len(s.RobotsStatus), unreachable, unavailable, delay, rate, s.Referrals)
			}
		}},
		{"2015 Apache log, Crawl-delay ignored by Google", options{Values: auditflags.Values{Robots: delayRobots, Grace: 24 * time.Hour}}, []string{apache2015}, func(t *testing.T, s *report.Summary) {
			var unsupported, delay int64
			for _, r := range s.Bots {
				unsupported += r.CrawlDelayUnsupported
				delay += r.CrawlDelayBreaches
			}
			if unsupported == 0 || delay == 0 {
				t.Errorf("crawl_delay_unsupported %d, crawl_delay_breaches %d: want both", unsupported, delay)
			}
		}},
		{"a month gaining Content-Usage: train-ai=n", options{Values: auditflags.Values{Robots: "../../testdata/aipref-month/robots"}},
			[]string{"../../testdata/aipref-month/access.log"}, func(t *testing.T, s *report.Summary) {
				var exposed int64
				for _, r := range s.Bots {
					exposed += r.PrefExposed
				}
				if exposed == 0 || len(s.Preferences) == 0 {
					t.Errorf("pref_exposed %d, %d versions declaring preferences: want both", exposed, len(s.Preferences))
				}
			}},
		{"generated month, google, no grace, a period", options{Values: auditflags.Values{Robots: genRobots, Spec: "google", Grace: 0, GraceSet: true,
			From: "2026-10-04T06:00:00Z", To: "2026-10-27"}}, genLogs, func(t *testing.T, s *report.Summary) {
			if s.Input.OutsidePeriod == 0 {
				t.Error("no request outside the period")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if slices.Contains(tc.logs, apache2015) && !haveShared {
				t.Skip("no ../shared/data: the real logs are not here")
			}
			want, wantAgents := auditOutputs(t, tc.opt, tc.logs)
			got, gotAgents := beamOutputs(t, tc.opt, tc.logs)
			if !bytes.Equal(got, want) {
				t.Errorf("summary.json differs from crawlaudit audit --json's:\n%s", diffLines(want, got))
			}
			if !bytes.Equal(gotAgents, wantAgents) {
				t.Errorf("agents.json differs from crawlaudit audit --out's:\n%s", diffLines(wantAgents, gotAgents))
			}
			var agents map[string]report.Agent
			if err := json.Unmarshal(gotAgents, &agents); err != nil || len(agents) == 0 {
				t.Errorf("agents.json holds %d tokens: %v", len(agents), err)
			}
			var s report.Summary
			if err := json.Unmarshal(got, &s); err != nil {
				t.Fatal(err)
			}
			tc.check(t, &s)
		})
	}
}

// TestPipelineOut checks --out: summary.json written, and the same as
// --json's; agents.json written, byte for byte the one `crawlaudit audit
// --out` writes into its directory of the same month.
func TestPipelineOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pipelines on Prism")
	}
	dir := filepath.Join(t.TempDir(), "out")
	var stdout bytes.Buffer
	o := &cliOptions{options: options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour}}, out: dir, json: true}
	if err := runAudit(context.Background(), o, []string{sampleLog}, "", &stdout); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(dir, summaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(written, stdout.Bytes()) || len(written) == 0 {
		t.Errorf("--out wrote %d bytes, --json printed %d", len(written), stdout.Len())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{agentsFile, summaryFile}) {
		t.Errorf("--out holds %q, want agents.json and summary.json alone", names)
	}
	cfg, err := o.config()
	if err != nil {
		t.Fatal(err)
	}
	res, err := audit.Run(context.Background(), cfg, []string{sampleLog})
	if err != nil {
		t.Fatal(err)
	}
	auditDir := filepath.Join(t.TempDir(), "audit")
	err = res.WriteOut(context.Background(), auditDir, audit.BlockPolicy{})
	res.Close()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(auditDir, agentsFile))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, agentsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) || len(want) < 100 {
		t.Errorf("agents.json (%d bytes) differs from crawlaudit audit --out's (%d bytes):\n%s", len(got), len(want), diffLines(want, got))
	}
}

// htmlRobots returns a --robots file that is an HTML page.
func htmlRobots(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(p, []byte("<!DOCTYPE html>\n<html><body>Not found</body></html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPipelineErrors checks what the command refuses, and that an input
// that audits nothing fails the pipeline without writing summary.json.
func TestPipelineErrors(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		name  string
		args  []string
		usage bool // a usage error, before any pipeline
		want  string
	}{
		{"no robots", []string{"--json", sampleLog}, true, "--robots SRC is required"},
		{"no output", []string{"--robots", sampleRobots, sampleLog}, true, "--json, --out DIR"},
		{"no log", []string{"--robots", sampleRobots, "--json"}, true, "at least one LOG"},
		{"stdin", []string{"--robots", sampleRobots, "--json", "-"}, true, "standard input"},
		{"missing log", []string{"--robots", sampleRobots, "--json", "/nonexistent/access.log"}, true, "nonexistent"},
		{"bad spec", []string{"--robots", sampleRobots, "--spec", "bogus", "--json", sampleLog}, true, "--spec"},
		{"bad from", []string{"--robots", sampleRobots, "--from", "yesterday", "--json", sampleLog}, true, "--from"},
		{"to before from", []string{"--robots", sampleRobots, "--from", "2026-10-02", "--to", "2026-10-01", "--json", sampleLog}, true, "before"},
		{"bad proxy", []string{"--robots", sampleRobots, "--trusted-proxy", "10.0.0.0/99", "--json", sampleLog}, true, "--trusted-proxy"},
		{"negative grace", []string{"--robots", sampleRobots, "--grace", "-1h", "--json", sampleLog}, true, "--grace"},
		{"bad fail-on", []string{"--robots", sampleRobots, "--fail-on", "disallowed,bogus", "--json", sampleLog}, true, "--fail-on"},
		{"glob matching nothing", []string{"--robots", sampleRobots, "--json", "/nonexistent/access.log.*"}, true, "no file matches"},
		{"missing operators", []string{"--robots", sampleRobots, "--operators", "/nonexistent/operators.yaml", "--json", sampleLog}, true, "--operators"},
		{"negative split", []string{"--robots", sampleRobots, "--split-bytes", "-1", "--json", sampleLog}, true, "--split-bytes"},
		{"missing robots", []string{"--robots", "/nonexistent/robots", "--json", sampleLog}, true, "nonexistent"},
		{"robots.txt that is HTML", []string{"--robots", htmlRobots(t), "--json", sampleLog}, true, "HTML"},
		{"nothing in the period", []string{"--robots", sampleRobots, "--from", "2030-01-01", "--out", out, sampleLog}, false, "nothing to audit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.usage && testing.Short() {
				t.Skip("runs a pipeline on Prism")
			}
			fs := flag.NewFlagSet("crawlaudit-beam", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var o cliOptions
			defineFlags(fs, &o)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			var stdout bytes.Buffer
			err := runAudit(context.Background(), &o, fs.Args(), "prism", &stdout)
			var ue *usageError
			switch {
			case err == nil:
				t.Fatalf("no error; stdout %q", stdout.String())
			case !strings.Contains(err.Error(), tc.want):
				t.Errorf("error %q, want %q in it", err, tc.want)
			case tc.usage != errors.As(err, &ue):
				t.Errorf("usage error %v: %v", errors.As(err, &ue), err)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout %q", stdout.String())
			}
		})
	}
	if _, err := os.Stat(filepath.Join(out, summaryFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("summary.json of an audit of nothing: %v", err)
	}
}

// TestPipelineInputErrors checks logs with input errors, a truncated gzip
// file and one whose format cannot be detected: without --keep-going the
// command fails and writes nothing; with it, summary.json (the readable
// lines counted, the errors in input) equals audit's.
func TestPipelineInputErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pipelines on Prism")
	}
	dir := t.TempDir()
	data, err := os.ReadFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.log.gz")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	junk := filepath.Join(dir, "junk.log")
	noise := make([]byte, 3000)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range noise {
		noise[i] = byte(rng.IntN(256))
	}
	if err := os.WriteFile(junk, noise, 0o644); err != nil {
		t.Fatal(err)
	}
	// junk alone: nothing to audit, as audit says.
	cfgJunk, err := (&options{Values: auditflags.Values{Robots: sampleRobots}}).config()
	if err != nil {
		t.Fatal(err)
	}
	_, wantErr := audit.Run(context.Background(), cfgJunk, []string{junk})
	gotErr := runAudit(context.Background(), &cliOptions{options: options{Values: auditflags.Values{Robots: sampleRobots}}, json: true}, []string{junk}, "prism", io.Discard)
	if wantErr == nil || gotErr == nil || gotErr.Error() != wantErr.Error() {
		t.Errorf("an undetectable log alone: %v, audit: %v", gotErr, wantErr)
	}
	logs := []string{sampleLog, junk, cut}
	out := filepath.Join(dir, "out")
	o := &cliOptions{options: options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour}}, out: out}
	err = runAudit(context.Background(), o, logs, "prism", io.Discard)
	if err == nil || !strings.Contains(err.Error(), "junk.log") || !strings.Contains(err.Error(), "--keep-going") {
		t.Errorf("a truncated log without --keep-going: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, summaryFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("summary.json despite an input error: %v", err)
	}
	opt := options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour, KeepGoing: true}}
	cfg, err := opt.config()
	if err != nil {
		t.Fatal(err)
	}
	res, inputErr := audit.Run(context.Background(), cfg, logs)
	if res == nil || inputErr == nil {
		t.Fatalf("audit of a truncated log: %v", inputErr)
	}
	defer res.Close()
	var want bytes.Buffer
	if err := report.WriteJSON(&want, &res.Summary); err != nil {
		t.Fatal(err)
	}
	got := beamJSON(t, opt, logs)
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("summary.json with --keep-going differs from audit's:\n%s", diffLines(want.Bytes(), got))
	}
	if !bytes.Contains(got, []byte(`"errors"`)) {
		t.Error("no input error in summary.json")
	}
}

// sharedData returns the path of rel in the real-world data kept beside
// the repository (../shared/data from the main module), or skips t.
func sharedData(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "data", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipping: real-world data %s is absent (it lives beside the repository, in ../shared/data): %v", rel, err)
	}
	return p
}

// TestPipelineRealLogs compares the pipeline with audit on real logs of
// three sites in two formats and three years, judged by a real site's
// robots.txt (in effect for all time), reading the plain log whole and
// in byte ranges.
func TestPipelineRealLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a pipeline on Prism")
	}
	logs := []string{
		sharedData(t, "real-logs/elastic-apache-semicomplete-2015/apache_logs.gz"),
		sharedData(t, "real-logs/almhuette-raith-apache-2019/access.log.gz"),
		sharedData(t, "real-logs/zanbil-shop-nginx-2019-sample/access.log"),
	}
	robotsFile := sharedData(t, "robots-history/wikipedia.org/2025-12-03T02:54:22Z.txt")
	opt := options{Values: auditflags.Values{Robots: robotsFile, Grace: 24 * time.Hour}}
	want := auditJSON(t, opt, logs)
	// Whole, and with the plain nginx log cut into 16 ranges.
	for _, split := range []int64{0, 20_011} {
		opt.SplitBytes = split
		got := beamJSON(t, opt, logs)
		if !bytes.Equal(got, want) {
			t.Errorf("--split-bytes %d: summary.json differs from crawlaudit audit --json's:\n%s", split, diffLines(want, got))
		}
		var s report.Summary
		if err := json.Unmarshal(got, &s); err != nil {
			t.Fatal(err)
		}
		if s.Input.Files != 3 || len(s.Bots) < 20 {
			t.Errorf("--split-bytes %d: %d files, %d bot rows", split, s.Input.Files, len(s.Bots))
		}
	}
}

// plainSample writes the sample month uncompressed into dir and returns
// its path.
func plainSample(t *testing.T, dir string) string {
	t.Helper()
	f, err := os.Open(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "access-2026-10.log")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// hostileSample writes the sample month into dir with, around every cut of
// a file into ranges of split bytes, what a cut can fall into: a line that
// is not a request (most cuts), a line longer than a range and than
// --max-line-bytes (one cut), a blank line, a CRLF line end. Every other
// line ends in CRLF; the file has no final newline.
func hostileSample(t *testing.T, dir string, split int) string {
	t.Helper()
	data, err := os.ReadFile(plainSample(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	cut := 0
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		end := "\n"
		if i%2 == 1 {
			end = "\r\n"
		}
		next := (b.Len()/split + 1) * split
		if b.Len()+len(line)+len(end) > next {
			cut++
			switch {
			case cut == 3:
				// Longer than a range: the range after the cut reads
				// nothing.
				b.WriteString("garbage " + strings.Repeat("#", 2*split) + end)
			case cut%5 == 0:
				b.WriteString(end)
			case cut%2 == 0:
				b.WriteString("garbage " + strings.Repeat("#", next-b.Len()) + end)
			}
		}
		if i > 0 && i%7919 == 0 {
			b.WriteString("\r\n\n")
		}
		b.WriteString(line)
		if i < 49999 {
			b.WriteString(end)
		}
	}
	p := filepath.Join(dir, "hostile.log")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPipelineSplitEqualsAudit runs the pipeline with a small
// --split-bytes, so that the plain files are read as many byte ranges
// whose cuts fall mid-line, and checks that summary.json equals
// `crawlaudit audit --json`'s on the same files, byte for byte: on the
// sample month uncompressed (one file, 40-odd ranges), on the generated
// month (two plain JSON-lines files and a combined one cut, a gzip one
// whole), and on the sample month with rejected lines, a line longer
// than a range, blank lines and CRLF ends at the cuts.
func TestPipelineSplitEqualsAudit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pipelines on Prism")
	}
	dir := t.TempDir()
	genRobots, genLogs := generateMonth(t, dir, 40000)
	sample := plainSample(t, dir)
	const hostileSplit = 250_000
	for _, tc := range []struct {
		name  string
		opt   options
		logs  []string
		split int64
		// ranges is the least number of ranges the logs must be cut into.
		ranges int
		check  func(t *testing.T, s *report.Summary)
	}{
		{"sample month", options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour}}, []string{sample}, 300_007, 40, func(t *testing.T, s *report.Summary) {
			if len(s.Bots) < 10 || s.Input.Files != 1 {
				t.Errorf("%d bot rows, %d files", len(s.Bots), s.Input.Files)
			}
		}},
		{"sample month named twice", options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour}}, []string{sample, dir + "/./" + filepath.Base(sample)}, 1_000_003, 26, func(t *testing.T, s *report.Summary) {
			if s.Input.Files != 1 {
				t.Errorf("%d files: a file named twice is read once, as audit reads it", s.Input.Files)
			}
		}},
		{"generated month", options{Values: auditflags.Values{Robots: genRobots, Grace: 24 * time.Hour}}, genLogs, 100_003, 30, func(t *testing.T, s *report.Summary) {
			if s.Input.Files != 5 || s.Input.Rejected == 0 || len(s.RobotsStatus) == 0 {
				t.Errorf("files %d, rejected %d, %d periods", s.Input.Files, s.Input.Rejected, len(s.RobotsStatus))
			}
		}},
		{"generated month, google, a period", options{Values: auditflags.Values{Robots: genRobots, Spec: "google", Grace: 0, GraceSet: true,
			From: "2026-10-04T06:00:00Z", To: "2026-10-27"}}, genLogs, 333_333, 9, func(t *testing.T, s *report.Summary) {
			if s.Input.OutsidePeriod == 0 {
				t.Error("no request outside the period")
			}
		}},
		{"rejected lines across the cuts", options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour}}, []string{hostileSample(t, dir, hostileSplit)}, hostileSplit, 50, func(t *testing.T, s *report.Summary) {
			if s.Input.RejectedReasons["line too long"] != 1 || s.Input.Rejected < 10 || len(s.Input.Samples) < 6 {
				t.Errorf("rejected %v, %d samples", s.Input.RejectedReasons, len(s.Input.Samples))
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := tc.opt.config()
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, l := range tc.logs {
				ranges, err := ingest.PlanRanges(context.Background(), l, tc.split, cfg.Ingest)
				if err != nil {
					t.Fatal(err)
				}
				n += len(ranges)
			}
			if n < tc.ranges {
				t.Fatalf("the logs are cut into %d ranges, want at least %d", n, tc.ranges)
			}
			want := auditJSON(t, tc.opt, tc.logs)
			opt := tc.opt
			opt.SplitBytes = tc.split
			got := beamJSON(t, opt, tc.logs)
			if !bytes.Equal(got, want) {
				t.Errorf("summary.json (%d ranges) differs from crawlaudit audit --json's:\n%s", n, diffLines(want, got))
			}
			var s report.Summary
			if err := json.Unmarshal(got, &s); err != nil {
				t.Fatal(err)
			}
			tc.check(t, &s)
		})
	}
}

// referredBy reports whether op's products sent visitors in s.
func referredBy(s *report.Summary, op string) bool {
	for _, r := range s.Referrals {
		if r.Operator == op && r.Referrals > 0 {
			return true
		}
	}
	return false
}
