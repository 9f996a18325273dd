//go:build duckdb_arrow

package audit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// realRobots is a robots.txt written for the real logs: their sites' own
// files are not available, so it disallows the paths such sites commonly
// close, and the SEO crawlers outright.
const realRobots = `User-agent: *
Disallow: /administrator/
Disallow: /wp-admin/
Disallow: /cgi-bin/
Disallow: /search
Crawl-delay: 5

User-agent: AhrefsBot
User-agent: SemrushBot
User-agent: MJ12bot
Disallow: /
`

// TestAuditRealLogs runs the audit over the real logs in
// ../shared/data/real-logs and checks it for sanity: every line accounted
// for, bots named, no browser among them.
func TestAuditRealLogs(t *testing.T) {
	root := shareddata.Path(t, "real-logs")
	robotsFile := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(robotsFile, []byte(realRobots), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, log := range []string{
		"almhuette-raith-apache-2019/access.log.gz",
		"elastic-apache-semicomplete-2015/apache_logs.gz",
		"darcien-findmu-gptbot-2026-snippet/access.log",
		"zanbil-shop-nginx-2019-sample/access.log",
	} {
		t.Run(filepath.Dir(log), func(t *testing.T) {
			res, err := Run(context.Background(), Config{Robots: robotsFile}, []string{filepath.Join(root, log)})
			if err != nil {
				t.Fatal(err)
			}
			defer res.Close()
			s := res.Summary
			in := s.Input
			if in.Lines == 0 || in.Parsed+in.Rejected != in.Lines {
				t.Errorf("lines %d, parsed %d + rejected %d", in.Lines, in.Parsed, in.Rejected)
			}
			if in.Rejected*100 > in.Lines {
				t.Errorf("%d of %d lines rejected (%v)", in.Rejected, in.Lines, in.RejectedReasons)
			}
			if in.BotRequests+in.HumanRequests != in.Parsed {
				t.Errorf("bots %d + humans %d != parsed %d", in.BotRequests, in.HumanRequests, in.Parsed)
			}
			var botRequests int64
			for _, b := range s.Bots {
				botRequests += b.Requests
				if b.Bot == "" {
					t.Errorf("a bot without a name: %+v", b)
				}
				for _, browser := range []string{"Mozilla", "Chrome", "Firefox", "Safari", "Edge", "Opera", "MSIE"} {
					if strings.EqualFold(b.Bot, browser) {
						t.Errorf("browser %q among the bots", b.Bot)
					}
				}
			}
			if botRequests != in.BotRequests {
				t.Errorf("per-bot requests sum to %d, input says %d bot requests", botRequests, in.BotRequests)
			}
			t.Logf("%d lines, %d rejected, %d bot and %d human requests, %d bots", in.Lines, in.Rejected, in.BotRequests, in.HumanRequests, len(s.Bots))
		})
	}
	// The SEO crawlers disallowed everywhere are caught where they crawl.
	res, err := Run(context.Background(), Config{Robots: robotsFile}, []string{filepath.Join(root, "elastic-apache-semicomplete-2015/apache_logs.gz")})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	for _, b := range res.Summary.Bots {
		if (b.Bot == "AhrefsBot" || b.Bot == "MJ12bot") && b.Disallowed == 0 {
			t.Errorf("%s: no disallowed request under Disallow: /", b.Bot)
		}
		if b.Bot == "Googlebot" && b.Disallowed+b.CrawlDelayBreaches == 0 {
			t.Errorf("Googlebot: neither disallowed nor delay breaches in a busy 2015 log: %+v", b)
		}
	}
}
