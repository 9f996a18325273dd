//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/internal/shareddata"
	"github.com/crawlaudit/crawlaudit/report"
)

// TestStreamWindowsGivesUp: past its bounds streamKeys measures nothing
// and says so, and the SQL then measures every key (an audit with both
// ways gives the same summary: TestAuditWindowsStreamedOrNot).
func TestStreamWindowsGivesUp(t *testing.T) {
	w := newStreamKeys(nil)
	for i := range maxStreamKeys + 1 {
		w.add(&streamRow{bot: int32(i), host: 1, us: int64(i), line: int64(i), may: true})
	}
	if w.windowsStreamed() || w.rows(windowPolicies, nil) != nil || w.keys != nil {
		t.Errorf("%d keys: streamed %v, %d keys kept", maxStreamKeys+1, w.windowsStreamed(), len(w.keys))
	}
	w = newStreamKeys(nil)
	w.add(&streamRow{bot: 1, host: 1 << 30, line: 1, may: true}) // a host id that does not fit the packed key
	if w.windowsStreamed() {
		t.Error("a host id of 2^30 was measured")
	}
	w = newStreamKeys(nil)
	w.add(&streamRow{bot: 1, host: 1, line: 1, policy: -1})       // a User-Agent no version limits ...
	w.add(&streamRow{bot: 1, host: 1, us: 1, line: 2, may: true}) // ... then one of the same bot that one does
	if w.windowsStreamed() {
		t.Error("a key whose first request was not kept was measured")
	}
	var nilW *streamKeys
	if nilW.windowsStreamed() || nilW.rows(nil, nil) != nil {
		t.Error("a nil streamKeys says it measured something")
	}
}

// TestAuditWindowsStreamedOrNot: the audit gives the same summary whether
// the judge measured the windows while the logs streamed or the SQL's
// window functions did (the judge gave up), on a generated month with
// Crawl-delay and Request-rate breaches, read as one file and as two whose
// lines interleave (every key's requests then arrive out of order).
func TestAuditWindowsStreamedOrNot(t *testing.T) {
	robotsDir, log := writeGenerated(t, t.TempDir(), "combined", false)
	audit := func(logs ...string) []report.BotRow {
		t.Helper()
		res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour}, logs)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		return res.Summary.Bots
	}
	for _, logs := range [][]string{{log}, interleave(t, log)} {
		streamed := audit(logs...)
		func() {
			defer func(n int) { maxStreamKeys = n }(maxStreamKeys)
			maxStreamKeys = 0
			if sql := audit(logs...); !reflect.DeepEqual(streamed, sql) {
				t.Errorf("%v: streamed windows:\n%+v\nSQL windows:\n%+v", logs, streamed, sql)
			}
		}()
		var delay, rate int64
		for _, r := range streamed {
			delay += r.CrawlDelayBreaches
			rate += r.RequestRateBreaches
		}
		if delay == 0 || rate == 0 {
			t.Errorf("%v: %d Crawl-delay and %d Request-rate breaches: the month measured nothing", logs, delay, rate)
		}
	}
}

// windowRobots gives the real logs' crawlers Crawl-delays (whole and
// fractional), Request-rates (one with a Visit-time-like window of the
// day) and both.
const windowRobots = `User-agent: *
Crawl-delay: 5
Request-rate: 1/10s
Disallow: /private/

User-agent: Googlebot
Crawl-delay: 1

User-agent: bingbot
User-agent: msnbot
Crawl-delay: 2.5

User-agent: MJ12bot
Request-rate: 3/1m 0600-1800
Crawl-delay: 0.5

User-agent: AhrefsBot
Request-rate: 2/30s
`

// TestAuditWindowsStreamedOrNotRealLogs: on the real logs of
// ../shared/data (whose lines are not in time order), each alone and all
// three at once, the streamed windows and the SQL's give the same summary.
func TestAuditWindowsStreamedOrNotRealLogs(t *testing.T) {
	root := shareddata.Path(t, "real-logs")
	robotsFile := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(robotsFile, []byte(windowRobots), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := []string{
		filepath.Join(root, "elastic-apache-semicomplete-2015/apache_logs.gz"),
		filepath.Join(root, "almhuette-raith-apache-2019/access.log.gz"),
		filepath.Join(root, "zanbil-shop-nginx-2019-sample/access.log"),
	}
	audit := func(logs []string) []report.BotRow {
		t.Helper()
		res, err := Run(context.Background(), Config{Robots: robotsFile}, logs)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		return res.Summary.Bots
	}
	var delay, rate int64
	for _, in := range [][]string{logs[:1], logs[1:2], logs[2:], logs} {
		streamed := audit(in)
		func() {
			defer func(n int) { maxStreamKeys = n }(maxStreamKeys)
			maxStreamKeys = 0
			if sql := audit(in); !reflect.DeepEqual(streamed, sql) {
				t.Errorf("%v: streamed windows:\n%+v\nSQL windows:\n%+v", in, streamed, sql)
			}
		}()
		for _, r := range streamed {
			delay += r.CrawlDelayBreaches
			rate += r.RequestRateBreaches
		}
	}
	if delay == 0 || rate == 0 {
		t.Errorf("%d Crawl-delay and %d Request-rate breaches: the logs measured nothing", delay, rate)
	}
}

// interleave splits log into two files of alternate lines, so that every
// bot's requests reach the judge out of order.
func interleave(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var odd, even []byte
	for i, l := range bytes.SplitAfter(data, []byte("\n")) {
		if i%2 == 0 {
			odd = append(odd, l...)
		} else {
			even = append(even, l...)
		}
	}
	a, b := log+".a", log+".b"
	if err := os.WriteFile(a, even, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, odd, 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{a, b}
}

// TestAuditChangesStreamedOrNot: the reactions to robots.txt changes
// (summary.json's "changes") are the same whether the judge gathered them
// while the logs streamed (streamChanges, with the periods of unreachable
// and unavailable robots.txt applied afterwards: availabilityFilter) or the
// SQL found them (changes.sql: the judge gave up, at once or part-way), on
// generated months of one host and of three, with the sample's robots.txt
// outages and without, read as one file and as two whose lines interleave.
// The months must have bots that break an added rule, fetch robots.txt
// after a change and obey.
func TestAuditChangesStreamedOrNot(t *testing.T) {
	outages := genConfig()
	calm := outages
	calm.RobotsOutages = nil
	threeCalm := calm
	threeCalm.Hosts = []string{"a.example", "b.example", "www.example.com"}
	threeCalm.Lines = 30000
	threeOutages := threeCalm
	threeOutages.RobotsOutages = outages.RobotsOutages
	for name, cfg := range map[string]loggen.Config{"one host": calm, "three hosts": threeCalm,
		"one host, outages": outages, "three hosts, outages": threeOutages} {
		t.Run(name, func(t *testing.T) {
			robotsDir, log := writeMonth(t, t.TempDir(), cfg, "jsonl", false)
			audit := func(logs []string) report.Summary {
				t.Helper()
				res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour}, logs)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Close()
				return res.Summary
			}
			for _, logs := range [][]string{{log}, interleave(t, log)} {
				streamed := audit(logs)
				if (len(streamed.RobotsStatus) > 0) != (len(cfg.RobotsOutages) > 0) {
					t.Fatalf("%v: %d periods of unavailable robots.txt with %d outages", logs, len(streamed.RobotsStatus), len(cfg.RobotsOutages))
				}
				var breaking int64
				var fetched, obeyed int
				for _, c := range streamed.Changes {
					breaking += c.Breaking
					if c.FirstRobotsFetch != nil {
						fetched++
					}
					if c.FirstObeying != nil {
						obeyed++
					}
				}
				if breaking == 0 || fetched == 0 || obeyed == 0 {
					t.Fatalf("%v: %d changes, %d breaches, %d fetched robots.txt, %d obeyed: nothing to compare", logs, len(streamed.Changes), breaking, fetched, obeyed)
				}
				for _, limit := range []struct {
					keys, requests int
				}{{0, maxStreamRequests}, {maxStreamKeys, 100}} {
					func() {
						defer func(k, r, n int) { maxStreamKeys, maxStreamRequests, maxStreamTimes = k, r, n }(maxStreamKeys, maxStreamRequests, maxStreamTimes)
						maxStreamKeys, maxStreamRequests, maxStreamTimes = limit.keys, limit.requests, limit.requests
						if sql := audit(logs); !reflect.DeepEqual(streamed.Changes, sql.Changes) || !reflect.DeepEqual(streamed.Bots, sql.Bots) {
							t.Errorf("%v, at most %d keys and %d requests: streamed changes:\n%+v\nSQL:\n%+v", logs, limit.keys, limit.requests, streamed.Changes, sql.Changes)
						}
					}()
				}
			}
		})
	}
}

// TestAuditFileOrderDecidesTies: two requests of one bot at the same
// instant in two files are ordered by the files' places among the inputs
// (their dict ids follow ingest's Options.Files), not by which parsing
// goroutine handed its batch over first: the first-named file's request
// has the gap since the bot's previous request, the other 0, in every run,
// in the SQL's measures (breaches.csv, `query`) and, as counts, in the
// streamed windows.
func TestAuditFileOrderDecidesTies(t *testing.T) {
	dir := t.TempDir()
	robotsFile := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robotsFile, []byte("User-agent: *\nCrawl-delay: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const ip = "157.55.39.1"
	first := filepath.Join(dir, "z-first.log") // named first, sorted last
	second := filepath.Join(dir, "a-second.log")
	var a, b []string
	for i := range 200 {
		ts := fmt.Sprintf("04/Oct/2026:%02d:%02d:00 +0000", 4+i/60, i%60)
		a = append(a, line(ip, ts, fmt.Sprintf("/a/%d", i), uaBing))
		b = append(b, line(ip, ts, fmt.Sprintf("/b/%d", i), uaBing))
	}
	if err := os.WriteFile(first, []byte(strings.Join(a, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second, []byte(strings.Join(b, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for run := range 4 {
		res, err := Run(context.Background(), Config{Robots: robotsFile, DB: filepath.Join(dir, fmt.Sprintf("audit%d.duckdb", run))}, []string{first, second})
		if err != nil {
			t.Fatal(err)
		}
		var firstGaps, secondGaps, secondNonZero int64
		err = res.store.Each(context.Background(), `SELECT file, count(*) FILTER (WHERE gap_us > 0), count(*) FROM judged GROUP BY file`, nil, func(v []any) error {
			switch v[0] {
			case first:
				firstGaps = numeric(v[1])
			case second:
				secondNonZero, secondGaps = numeric(v[1]), numeric(v[2])
			}
			return nil
		})
		res.Close()
		if err != nil {
			t.Fatal(err)
		}
		// Every request of the first file but the bot's first follows a
		// minute after the previous instant; every one of the second file
		// shares its instant with the first file's.
		if firstGaps != 199 || secondNonZero != 0 || secondGaps != 200 {
			t.Fatalf("run %d: %d gaps in %s, %d of %d non-zero in %s; want 199, 0 of 200", run, firstGaps, first, secondNonZero, secondGaps, second)
		}
	}
}
