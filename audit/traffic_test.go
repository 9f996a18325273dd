//go:build duckdb_arrow

package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAuditTrafficPerHost: human traffic never reaches a batch (the ingest
// row filter drops it) but is counted per host, under the host's judged name
// ("A.example:443" is "a.example"), a host logged in invalid UTF-8 under its
// repaired name, rows outside --from/--to apart, from several parsing
// goroutines at once (small blocks).
func TestAuditTrafficPerHost(t *testing.T) {
	vhost := func(host, ts, ua string) string {
		return host + ` 192.0.2.1 - - [` + ts + ` +0000] "GET / HTTP/1.1" 200 5 "-" "` + ua + `"`
	}
	uaOddBrowser := "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0 \xff"
	var lines []string
	want := map[string][2]int64{} // judged host → humans, bots
	outside := int64(0)
	for i := 0; i < 2000; i++ {
		host := []string{"a.example", "A.example:443", "b.example", "c\xff.example"}[i%4]
		name := []string{"a.example", "a.example", "b.example", `c\xff.example`}[i%4]
		day := 1 + i%12 // days 1..12; --from 2026-10-02 --to 2026-10-11 leaves out 1 and 12
		ts := fmt.Sprintf("%02d/Oct/2026:10:%02d:%02d", day, (i/60)%60, i%60)
		ua := []string{uaChrome, uaGooglebot, uaOddBrowser, uaCurl, uaGPTBot}[i%5]
		lines = append(lines, vhost(host, ts, ua))
		if day == 1 || day == 12 {
			outside++
			continue
		}
		w := want[name]
		if i%5 == 0 || i%5 == 2 {
			w[0]++
		} else {
			w[1]++
		}
		want[name] = w
	}
	dir := t.TempDir()
	logFile := filepath.Join(dir, "vhost.log")
	if err := os.WriteFile(logFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	robotsDir, _ := writeScenario(t)
	// b.example has a robots.txt too: a history that covers none of the
	// logs' hosts audits nothing (TestNothingToAudit).
	if err := os.MkdirAll(filepath.Join(robotsDir, "b.example"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(robotsDir, "b.example", "2026-10-01.txt"), []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Robots: robotsDir, From: time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 10, 11, 23, 59, 59, 0, time.UTC)}
	cfg.Ingest.BlockBytes = 4096
	cfg.Ingest.Workers = 3
	res, err := Run(context.Background(), cfg, []string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	in := res.Summary.Input
	if in.OutsidePeriod != outside {
		t.Errorf("outside the period: %d, want %d", in.OutsidePeriod, outside)
	}
	if in.BotRequests+in.HumanRequests+in.OutsidePeriod != in.Parsed || in.Parsed != int64(len(lines)) {
		t.Errorf("bots %d + humans %d + outside %d != parsed %d (%d lines)", in.BotRequests, in.HumanRequests, in.OutsidePeriod, in.Parsed, len(lines))
	}
	got := map[string][2]int64{}
	err = res.Store().Each(context.Background(), "SELECT host, humans, bots FROM traffic", nil, func(v []any) error {
		got[v[0].(string)] = [2]int64{v[1].(int64), v[2].(int64)}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("traffic (humans, bots) per host:\n got %v\nwant %v", got, want)
	}
	var stored int64
	err = res.Store().Each(context.Background(), "SELECT count(*) FROM requests", nil, func(v []any) error {
		stored = v[0].(int64)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if stored != in.BotRequests {
		t.Errorf("%d rows stored, want the %d bot requests only", stored, in.BotRequests)
	}
}
