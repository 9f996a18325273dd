//go:build duckdb_arrow

package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// largeHistoryStart is when the first version of a large history goes live.
var largeHistoryStart = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)

// writeLargeHistory writes a versions directory of n versions a day apart,
// each with rules Disallow lines in one "*" group (25,000 lines are about
// 500 KiB), and returns it. Version i rewrites every every-th rule, so each
// change adds rules/every rules and removes as many; every=1 rewrites all.
func writeLargeHistory(tb testing.TB, n, rules, every int) string {
	tb.Helper()
	dir := tb.TempDir()
	var b strings.Builder
	for i := range n {
		b.Reset()
		b.WriteString("User-agent: *\nCrawl-delay: 5\n")
		for k := range rules {
			id := k
			if k%every == i%every {
				id = k + 1_000_000*i
			}
			fmt.Fprintf(&b, "Disallow: /section-%d/page-%d/item-%d/\n", id%97, id%1000, id)
		}
		name := largeHistoryStart.Add(time.Duration(i) * 24 * time.Hour).Format(time.RFC3339)
		if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// largeHistoryBots are the User-Agents of writeLargeHistoryLog: several
// bots, so that every change has several (change, bot) pairs.
var largeHistoryBots = []string{
	uaGooglebot, uaBing, uaGPTBot, uaAhrefs, uaCurl,
	"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
	"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
	"CCBot/2.0 (https://commoncrawl.org/faq/)",
}

// writeLargeHistoryLog writes a log of every bot of largeHistoryBots
// requesting a page every 6 hours over days days from largeHistoryStart.
func writeLargeHistoryLog(tb testing.TB, days int) string {
	tb.Helper()
	var lines []string
	for h := 0; h < days*24; h += 6 {
		ts := largeHistoryStart.Add(time.Duration(h)*time.Hour + time.Minute).Format("02/Jan/2006:15:04:05 -0700")
		for i, ua := range largeHistoryBots {
			lines = append(lines, line(fmt.Sprintf("192.0.2.%d", i+1), ts, fmt.Sprintf("/section-%d/page-%d/item-%d/", h%97, h%1000, h), ua))
		}
	}
	path := filepath.Join(tb.TempDir(), "access.log")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestAddedRulesLargeHistory: the rules a change adds are those of the new
// version's group that the old one lacks, in the new version's order and
// once each, whether or not the group texts are cached.
func TestAddedRulesLargeHistory(t *testing.T) {
	dir := writeLargeHistory(t, 3, 2000, 100)
	hist, err := history.Load(dir, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(memory.DefaultAllocator, hist, robots.RFC9309, bots.NewIdentifier(), readyRanges(nil))
	defer j.release()
	for _, c := range []struct {
		prev, cur int
		want      []string
	}{
		// Version 1 rewrites rules 1, 101, 201, ...; version 2 rules 2,
		// 102, ... and puts rules 1, 101, ... back.
		{0, 1, rewritten(2000, 100, 1, 1)},
		{1, 2, append(rewritten(2000, 100, 1, 0), rewritten(2000, 100, 2, 2)...)},
		{0, 0, []string{}},
	} {
		for _, cache := range []groupTexts{nil, {}} {
			got := addedRules(j, cache, c.prev, c.cur, uaGooglebot, "Googlebot")
			want := slices.Clone(c.want)
			slices.SortFunc(want, func(a, b string) int { return ruleIndex(a) - ruleIndex(b) })
			if !slices.Equal(got, want) {
				t.Errorf("%d→%d (cache %v): %d rules added, want %d; first %q, want %q", c.prev, c.cur, cache != nil, len(got), len(want), first(got), first(want))
			}
		}
	}
}

// rewritten returns the rule texts of writeLargeHistory that version v
// has at the positions k%every == pos%every (version 0's where v is 0).
func rewritten(rules, every, pos, v int) []string {
	var out []string
	for k := range rules {
		if k%every != pos%every {
			continue
		}
		id := k + 1_000_000*v
		out = append(out, fmt.Sprintf("Disallow: /section-%d/page-%d/item-%d/", id%97, id%1000, id))
	}
	return out
}

// ruleIndex is the position in the file of a rule text of writeLargeHistory.
func ruleIndex(text string) int {
	i := strings.LastIndex(text, "item-")
	var id int
	fmt.Sscanf(text[i+len("item-"):], "%d", &id)
	return id % 1_000_000
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// TestRunLargeHistoryCancel: an audit of a history of large versions (40
// of about 500 KiB) returns promptly with the context's error when it is
// cancelled, at whatever phase it is in: at a tenth, two fifths and seven
// tenths of the time a whole run takes on this machine.
func TestRunLargeHistoryCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20 MB of robots.txt versions")
	}
	dir := writeLargeHistory(t, 40, 25000, 1)
	log := writeLargeHistoryLog(t, 40)
	cfg := Config{Robots: dir, Host: "example.com"}
	start := time.Now()
	res, err := Run(context.Background(), cfg, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	res.Close()
	whole := time.Since(start)
	for _, frac := range []float64{0.1, 0.4, 0.7} {
		after := time.Duration(frac * float64(whole))
		t.Run(fmt.Sprint(frac), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				res, err := Run(ctx, cfg, []string{log})
				if err == nil {
					res.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				t.Skipf("finished in less than %v of a whole run's %v (err %v): nothing to cancel", after, whole, err)
			case <-time.After(after):
			}
			cancel()
			stopped := time.Now()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("cancelled after %v of %v: err = %v, want context.Canceled", after, whole, err)
				}
				t.Logf("cancelled after %v of a whole run's %v: returned in %v", after, whole, time.Since(stopped))
			case <-time.After(10 * time.Second):
				t.Fatalf("cancelled after %v of %v: still running 10 s later", after, whole)
			}
		})
	}
}

// BenchmarkAddedRules measures the rules each change adds, per (change,
// bot) pair, for versions of 2,500 and 25,000 rules (about 50 and 500 KiB)
// that rewrite every rule or one in 50: the time per pair grows with the
// rules, not with their square.
func BenchmarkAddedRules(b *testing.B) {
	for _, c := range []struct{ rules, every int }{{2500, 50}, {25000, 50}, {2500, 1}, {25000, 1}} {
		b.Run(fmt.Sprintf("rules=%d/rewrite=1in%d", c.rules, c.every), func(b *testing.B) {
			const versions = 4
			hist, err := history.Load(writeLargeHistory(b, versions, c.rules, c.every), history.Options{})
			if err != nil {
				b.Fatal(err)
			}
			j := newJudge(memory.DefaultAllocator, hist, robots.RFC9309, bots.NewIdentifier(), readyRanges(nil))
			defer j.release()
			b.ReportAllocs()
			pairs := 0
			for b.Loop() {
				for k := 1; k < versions; k++ {
					cache := groupTexts{}
					for _, ua := range largeHistoryBots {
						addedRules(j, cache, k-1, k, ua, j.ident.Identify(ua).Name)
						pairs++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(pairs), "ns/pair")
			b.ReportMetric(float64(c.rules), "rules/version")
		})
	}
}

// BenchmarkRunLargeHistory is the whole audit of a week of eight bots
// against versions of about 500 KiB that each rewrite one rule in 50: the
// time grows with the versions, not with their square.
func BenchmarkRunLargeHistory(b *testing.B) {
	for _, n := range []int{2, 4, 8} {
		b.Run(fmt.Sprintf("versions=%d", n), func(b *testing.B) {
			dir := writeLargeHistory(b, n, 25000, 50)
			log := writeLargeHistoryLog(b, n)
			for b.Loop() {
				res, err := Run(context.Background(), Config{Robots: dir, Host: "example.com"}, []string{log})
				if err != nil {
					b.Fatal(err)
				}
				res.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/version")
		})
	}
}
