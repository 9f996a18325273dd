//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/report"
)

var updateConduct = flag.Bool("update", false, "rewrite the golden files in testdata/")

// conductLayout is an nginx log_format that logs the answer's Retry-After.
const conductLayout = `$remote_addr [$time_local] "$request" $status $body_bytes_sent "$http_user_agent" "$sent_http_retry_after"`

// conductLine is one line of conductLayout.
func conductLine(ip string, at time.Time, method, target string, status, size int, ua, retryAfter string) string {
	return fmt.Sprintf("%s [%s] \"%s %s HTTP/1.1\" %d %d \"%s\" \"%s\"\n", ip, at.Format("02/Jan/2006:15:04:05 -0700"),
		method, target, status, size, ua, retryAfter)
}

// Two crawlers of one month: HammerBot goes on every 10 s while the site
// answers 503 with Retry-After: 3600 for two hours (draft-illyes-webbotauth-
// cbcp-01 §2.3: back off on the signals of RFC 9110 §15.6); PoliteBot
// fetches three pages daily, revalidating them (304, §2.4: support
// caching), and after its 503 comes back when Retry-After said.
const (
	hammerUA = "Mozilla/5.0 (compatible; HammerBot/1.0; +https://hammer.example/bot.html)"
	politeUA = "PoliteBot/2.0 (crawler@polite.example)"
)

// conductMonth writes the month of HammerBot and PoliteBot, and a robots.txt.
func conductMonth(t *testing.T, dir string) (robotsPath, log string) {
	t.Helper()
	day := func(d, h, m, s int) time.Time { return time.Date(2026, 10, d, h, m, s, 0, time.UTC) }
	var b strings.Builder
	for d := 1; d <= 31; d++ {
		b.WriteString(conductLine("192.0.2.20", day(d, 3, 0, 0), "GET", "/robots.txt", 200, 120, politeUA, "-"))
		for i, p := range []string{"/a", "/b", "/c"} {
			st, size := 304, 0
			if d == 1 {
				st, size = 200, 15000
			}
			b.WriteString(conductLine("192.0.2.20", day(d, 3, 1+i, 0), "GET", p, st, size, politeUA, "-"))
		}
		for i := range 20 {
			b.WriteString(conductLine("192.0.2.10", day(d, 6, i, 0), "GET", fmt.Sprintf("/p/%d", d*100+i), 200, 20000, hammerUA, "-"))
		}
	}
	// 10 October, 10:00-12:00: the site fails.
	for s := 0; s < 7200; s += 10 {
		at := day(10, 10, 0, 0).Add(time.Duration(s) * time.Second)
		b.WriteString(conductLine("192.0.2.10", at, "GET", "/p/1000", 503, 512, hammerUA, "3600"))
	}
	b.WriteString(conductLine("192.0.2.20", day(10, 10, 0, 5), "GET", "/a", 503, 512, politeUA, "3600"))
	b.WriteString(conductLine("192.0.2.20", day(10, 11, 5, 0), "GET", "/a", 503, 512, politeUA, "Sat, 10 Oct 2026 12:00:05 GMT"))
	b.WriteString(conductLine("192.0.2.20", day(10, 12, 1, 0), "GET", "/a", 304, 0, politeUA, "-"))
	// HammerBot also posts a form.
	b.WriteString(conductLine("192.0.2.10", day(11, 9, 0, 0), "POST", "/search", 200, 900, hammerUA, "-"))
	robotsPath = filepath.Join(dir, "robots.txt")
	log = filepath.Join(dir, "access.log")
	if err := os.WriteFile(robotsPath, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return robotsPath, log
}

// conductBots audits logs and returns the bot rows as JSON.
func conductBots(t *testing.T, cfg Config, logs []string) ([]report.BotRow, string, bool) {
	t.Helper()
	res, err := Run(context.Background(), cfg, logs)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	js, err := json.MarshalIndent(res.Summary.Bots, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return res.Summary.Bots, string(js) + "\n", res.lean
}

// TestConductMonth: a crawler that hammers a failing site and one that
// revalidates politely, their bytes and status mixes, the same from the
// judge's stream, from queries/conduct.sql over the stored requests, and
// from a lean audit; the rows are golden (testdata/conduct-month.json).
func TestConductMonth(t *testing.T) {
	dir := t.TempDir()
	robotsPath, log := conductMonth(t, dir)
	cfg := Config{Robots: robotsPath, Grace: 24 * time.Hour, Ingest: ingest.Options{LogFormat: conductLayout}}
	rows, streamed, _ := conductBots(t, cfg, []string{log})

	byBot := map[string]report.BotRow{}
	for _, r := range rows {
		byBot[r.Bot] = r
	}
	hammer, polite := byBot["HammerBot"], byBot["PoliteBot"]
	// HammerBot: 720 answers 503; each but the first came 10 s after one
	// that asked for an hour.
	if c := hammer.Conduct; c.ErrorAnswers != 720 || c.NoBackoff != 719 || c.OtherMethods != 1 || !c.Contact {
		t.Errorf("HammerBot conduct %+v", c)
	}
	if hammer.Status.S5xx != 720 || hammer.Status.S2xx != 31*20+1 || hammer.Bytes != 720*512+31*20*20000+900 {
		t.Errorf("HammerBot status %+v, bytes %d", hammer.Status, hammer.Bytes)
	}
	// PoliteBot: its second 503 came after the first's hour, its 304 after
	// the second's date; 30 days of three 304s and robots.txt refetched.
	if c := polite.Conduct; c.ErrorAnswers != 2 || c.NoBackoff != 0 || c.OtherMethods != 0 || !c.Contact ||
		c.NotModifiedShare == nil || *c.NotModifiedShare < 0.7 || c.RefetchHoursMedian == nil || *c.RefetchHoursMedian != 24 {
		t.Errorf("PoliteBot conduct %+v", c)
	}
	if polite.Status.S304 != 91 || polite.Status.S2xx != 31+3 || polite.Bytes != 31*120+3*15000+2*512 {
		t.Errorf("PoliteBot status %+v, bytes %d", polite.Status, polite.Bytes)
	}

	func() {
		defer func(n int) { maxConductRequests = n }(maxConductRequests)
		maxConductRequests = 0
		if _, bySQL, _ := conductBots(t, cfg, []string{log}); bySQL != streamed {
			t.Errorf("conduct.sql and the stream differ:\nSQL:\n%s\nstream:\n%s", bySQL, streamed)
		}
	}()
	leanCfg := cfg
	leanCfg.Lean = true
	if _, lean, wasLean := conductBots(t, leanCfg, []string{log}); lean != streamed || !wasLean {
		t.Errorf("the lean audit (lean %v) differs:\n%s\nfull:\n%s", wasLean, lean, streamed)
	}

	golden := filepath.Join("testdata", "conduct-month.json")
	if *updateConduct {
		if err := os.WriteFile(golden, []byte(streamed), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(want, []byte(streamed)) {
		t.Errorf("bot rows differ from %s (run with -update if the change is right):\n%s", golden, streamed)
	}
}

// TestConductStreamEqualsSQL: random months, split into two files read
// interleaved (so the judge meets requests out of order), with ties,
// statuses of every class, both forms of Retry-After and unreadable ones,
// and several methods: the conduct the judge streams equals conduct.sql's
// over the stored requests, and the lean audit's.
func TestConductStreamEqualsSQL(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2026))
	uas := []string{hammerUA, politeUA, "Googlebot/2.1 (+http://www.google.com/bot.html)", "SomeBot/0.1", "curl/8.5.0"}
	statuses := []int{200, 200, 200, 304, 304, 301, 404, 429, 503, 500}
	retry := []string{"-", "-", "1", "5", "120", "junk", "Thu, 01 Oct 2026 00:02:00 GMT"}
	methods := []string{"GET", "GET", "GET", "HEAD", "POST"}
	var measured [3]int64
	for round := range 6 {
		dir := t.TempDir()
		robotsPath := filepath.Join(dir, "robots.txt")
		if err := os.WriteFile(robotsPath, []byte("User-agent: *\nDisallow: /x/\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var files [2]strings.Builder
		t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
		for range 300 + rng.IntN(500) {
			at := t0.Add(time.Duration(rng.IntN(3*3600)) * time.Second)
			line := conductLine(fmt.Sprintf("192.0.2.%d", 1+rng.IntN(3)), at, methods[rng.IntN(len(methods))],
				fmt.Sprintf("/p/%d", rng.IntN(30)), statuses[rng.IntN(len(statuses))], rng.IntN(5000),
				uas[rng.IntN(len(uas))], retry[rng.IntN(len(retry))])
			files[rng.IntN(2)].WriteString(line)
		}
		var logs []string
		for i := range files {
			p := filepath.Join(dir, fmt.Sprintf("access-%d.log", i))
			if err := os.WriteFile(p, []byte(files[i].String()), 0o644); err != nil {
				t.Fatal(err)
			}
			logs = append(logs, p)
		}
		cfg := Config{Robots: robotsPath, Grace: 24 * time.Hour, Ingest: ingest.Options{LogFormat: conductLayout, BatchRows: 64}}
		rows, streamed, _ := conductBots(t, cfg, logs)
		var bySQL string
		func() {
			defer func(n int) { maxConductRequests = n }(maxConductRequests)
			maxConductRequests = 0
			_, bySQL, _ = conductBots(t, cfg, logs)
		}()
		if bySQL != streamed {
			t.Fatalf("round %d: conduct.sql and the stream differ:\nSQL:\n%s\nstream:\n%s", round, bySQL, streamed)
		}
		cfg.Lean = true
		if _, lean, _ := conductBots(t, cfg, logs); lean != streamed {
			t.Fatalf("round %d: the lean audit differs:\n%s\nfull:\n%s", round, lean, streamed)
		}
		for _, r := range rows {
			measured[0] += r.Conduct.NoBackoff
			measured[1] += r.Conduct.RepeatFetches
			measured[2] += r.Conduct.OtherMethods
		}
	}
	if measured[0] == 0 || measured[1] == 0 || measured[2] == 0 {
		t.Fatalf("no_backoff, repeat fetches, other methods: %v: the months measured nothing", measured)
	}
}
