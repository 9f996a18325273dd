//go:build duckdb_arrow

package audit

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
)

// The scenario: one host, three robots.txt versions, a hand-written
// combined log whose answers were worked out by hand (see the comments on
// each line), not by running the code.
var scenarioVersions = map[string]string{
	"2026-10-01T00:00:00Z.txt": `# v1
User-agent: *
Disallow: /private/
Crawl-delay: 10

User-agent: GPTBot
Disallow: /gpt-only/

User-agent: AhrefsBot
Disallow: /merged-a/

User-agent: AhrefsBot
Disallow: /merged-b/
Request-rate: 2/10s

User-agent: bingbot
Visit-time: 0100-0600
Disallow: /no-bing/
`,
	// v2: GPTBot is disallowed everywhere from now on.
	"2026-10-10T00:00:00Z.txt": `# v2
User-agent: *
Disallow: /private/
Crawl-delay: 10

User-agent: GPTBot
Disallow: /

User-agent: AhrefsBot
Disallow: /merged-a/

User-agent: AhrefsBot
Disallow: /merged-b/
Request-rate: 2/10s

User-agent: bingbot
Visit-time: 0100-0600
Disallow: /no-bing/
`,
	// v3: a percent-encoded path for everyone, a shorter delay.
	"2026-10-20T00:00:00Z.txt": `# v3
User-agent: *
Disallow: /private/
Disallow: /caf%C3%A9/
Crawl-delay: 5

User-agent: GPTBot
Disallow: /

User-agent: AhrefsBot
Disallow: /merged-a/

User-agent: AhrefsBot
Disallow: /merged-b/
Request-rate: 2/10s

User-agent: bingbot
Visit-time: 0100-0600
Disallow: /no-bing/
`,
}

const (
	uaGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)"
	uaAhrefs    = "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)"
	uaBing      = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
	uaChrome    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	uaCurl      = "curl/8.5.0"
)

func line(ip, ts, target, ua string) string {
	return ip + ` - - [` + ts + `] "GET ` + target + ` HTTP/1.1" 200 512 "-" "` + ua + `"`
}

// scenarioLog is the log; the offsets follow Europe/Berlin, which leaves
// summer time on 2026-10-25 at 01:00 UTC (+0200 → +0100).
var scenarioLog = []string{
	// Before the first version: unaudited.
	line("66.249.66.1", "30/Sep/2026:23:00:00 +0000", "/private/early", uaGooglebot),
	// Googlebot, group *: 5 audited requests.
	line("66.249.66.1", "02/Oct/2026:10:00:00 +0200", "/private/a", uaGooglebot),      // disallowed (v1 line 3)
	line("66.249.66.1", "02/Oct/2026:10:00:05 +0200", "/index.html", uaGooglebot),     // 5 s after: under Crawl-delay 10, which Google ignores
	line("66.249.66.2", "02/Oct/2026:10:00:30 +0200", "/robots.txt", uaGooglebot),     // robots fetch, 25 s: fine
	line("66.249.66.1", "20/Oct/2026:03:00:00 +0200", "/caf%C3%A9/", uaGooglebot),     // 01:00Z, v3 disallows; v2 24 h earlier allowed: in grace
	line("66.249.66.1", "21/Oct/2026:10:00:00 +0200", "/caf%c3%a9/menu", uaGooglebot), // v3 both now and 24 h earlier: disallowed
	// GPTBot, own group.
	line("74.7.227.189", "05/Oct/2026:12:00:00 +0200", "/gpt-only/x", uaGPTBot), // disallowed (v1)
	line("74.7.227.189", "05/Oct/2026:12:00:20 +0200", "/blog/", uaGPTBot),      // allowed (v1); its group has no Crawl-delay
	line("74.7.227.189", "10/Oct/2026:12:00:00 +0200", "/blog/post", uaGPTBot),  // v2 disallows, v1 24 h earlier allowed: in grace
	line("74.7.227.189", "12/Oct/2026:12:00:00 +0200", "/blog/", uaGPTBot),      // v2 now and 24 h earlier: disallowed
	// AhrefsBot, two merged groups, Request-rate 2/10s.
	line("54.36.148.1", "03/Oct/2026:08:00:00 +0200", "/merged-a/1", uaAhrefs), // disallowed by the first group; 1 in window
	line("54.36.148.1", "03/Oct/2026:08:00:01 +0200", "/merged-b/2", uaAhrefs), // disallowed by the second group; 2 in window
	line("54.36.148.2", "03/Oct/2026:08:00:02 +0200", "/ok", uaAhrefs),         // 3 in (t-10s, t]: rate breach
	line("54.36.148.1", "03/Oct/2026:08:00:03 +0200", "/ok2", uaAhrefs),        // 4: rate breach
	line("54.36.148.1", "03/Oct/2026:08:00:20 +0200", "/ok3", uaAhrefs),        // 1: fine
	// bingbot, Visit-time 0100-0600 UTC.
	line("157.55.39.1", "04/Oct/2026:04:00:00 +0200", "/a", uaBing),         // 02:00Z inside
	line("157.55.39.1", "04/Oct/2026:04:00:10 +0200", "/no-bing/x", uaBing), // 02:00Z inside, disallowed
	line("157.55.39.1", "04/Oct/2026:10:00:00 +0200", "/b", uaBing),         // 08:00Z outside
	line("157.55.39.1", "26/Oct/2026:07:30:00 +0100", "/c", uaBing),         // 06:30Z outside (+0200 would say 05:30, inside)
	line("157.55.39.1", "26/Oct/2026:06:59:00 +0100", "/d", uaBing),         // 05:59Z inside
	// A browser in disallowed places: never counted.
	line("203.0.113.9", "06/Oct/2026:09:00:00 +0200", "/private/secret", uaChrome),
	line("203.0.113.9", "06/Oct/2026:09:00:01 +0200", "/gpt-only/", uaChrome),
	// A script is a bot too, judged by the * group.
	line("198.51.100.7", "06/Oct/2026:09:30:00 +0200", "/private/x", uaCurl), // disallowed
	// A malformed line.
	`this is not a log line`,
}

type wantRow struct {
	requests, robots, disallowed, grace, delay, rate, visit, ips int64
	unsupported                                                  int64 // crawl_delay_unsupported
}

var scenarioWant = map[string]wantRow{
	"Googlebot": {requests: 6, robots: 1, disallowed: 2, grace: 1, unsupported: 1, ips: 2},
	"GPTBot":    {requests: 4, disallowed: 2, grace: 1, ips: 1},
	"AhrefsBot": {requests: 5, disallowed: 2, rate: 2, ips: 2},
	"bingbot":   {requests: 5, disallowed: 1, visit: 2, ips: 1},
	"curl":      {requests: 1, disallowed: 1, ips: 1},
}

func writeScenario(t *testing.T) (robotsDir, logFile string) {
	t.Helper()
	dir := t.TempDir()
	robotsDir = filepath.Join(dir, "robots")
	host := filepath.Join(robotsDir, "www.example.com")
	if err := os.MkdirAll(host, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range scenarioVersions {
		if err := os.WriteFile(filepath.Join(host, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	logFile = filepath.Join(dir, "access.log")
	if err := os.WriteFile(logFile, []byte(strings.Join(scenarioLog, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return robotsDir, logFile
}

func checkScenario(t *testing.T, res *Result) {
	t.Helper()
	s := res.Summary
	in := s.Input
	if in.Lines != int64(len(scenarioLog)) || in.Parsed != in.Lines-1 || in.Rejected != 1 {
		t.Errorf("input: lines %d parsed %d rejected %d; want %d, %d, 1", in.Lines, in.Parsed, in.Rejected, len(scenarioLog), len(scenarioLog)-1)
	}
	if in.Unaudited != 1 {
		t.Errorf("unaudited = %d, want 1", in.Unaudited)
	}
	if in.HumanRequests != 2 || in.BotRequests != int64(len(scenarioLog)-3) {
		t.Errorf("humans %d bots %d; want 2, %d", in.HumanRequests, in.BotRequests, len(scenarioLog)-3)
	}
	if len(s.Robots) != 1 || s.Robots[0].Host != "www.example.com" || s.Robots[0].Versions != 3 {
		t.Errorf("robots = %+v, want www.example.com with 3 versions", s.Robots)
	}
	got := map[string]report.BotRow{}
	for _, r := range s.Bots {
		if r.Host != "www.example.com" {
			t.Errorf("bot %s on host %q, want www.example.com", r.Bot, r.Host)
		}
		got[r.Bot] = r
	}
	if len(got) != len(scenarioWant) {
		t.Errorf("bots = %v, want exactly %d (no browser)", keys(got), len(scenarioWant))
	}
	for bot, w := range scenarioWant {
		r, ok := got[bot]
		if !ok {
			t.Errorf("bot %s missing", bot)
			continue
		}
		g := wantRow{r.Requests, r.RobotsFetches, r.Disallowed, r.DisallowedInGrace, r.CrawlDelayBreaches,
			r.RequestRateBreaches, r.VisitTimeBreaches, r.IPs, r.CrawlDelayUnsupported}
		if g != w {
			t.Errorf("%s: got %+v\n want %+v", bot, g, w)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestAuditScenario(t *testing.T) {
	robotsDir, logFile := writeScenario(t)
	ctx := context.Background()
	res, err := Run(ctx, Config{Robots: robotsDir, Grace: 24 * time.Hour, Profile: robots.RFC9309}, []string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	checkScenario(t, res)

	// The files of --out.
	out := t.TempDir()
	if err := res.WriteOut(ctx, out, BlockPolicy{}); err != nil {
		t.Fatal(err)
	}
	viol := readCSV(t, filepath.Join(out, "violations.csv"))
	if n := len(viol) - 1; n != 10 {
		t.Errorf("violations.csv has %d rows, want 10 (8 disallowed + 2 in grace)", n)
	}
	breaches := readCSV(t, filepath.Join(out, "breaches.csv"))
	kinds := map[string]int{}
	for _, r := range breaches[1:] {
		kinds[r[5]]++
	}
	if kinds["crawl-delay-unsupported"] != 1 || kinds["crawl-delay"] != 0 || kinds["request-rate"] != 2 || kinds["visit-time"] != 2 {
		t.Errorf("breaches.csv kinds = %v", kinds)
	}
	bl, err := os.ReadFile(filepath.Join(out, "blocklist.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var ips []string
	for _, l := range strings.Split(string(bl), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			ips = append(ips, l)
		}
	}
	// The crawlers' own addresses are verified by their operators' lists of
	// 2026, and a verified crawler is never blocked by default: only the
	// script's remains.
	want := []string{"198.51.100.7"}
	if strings.Join(ips, " ") != strings.Join(want, " ") {
		t.Errorf("blocklist = %v, want %v", ips, want)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.json")); err != nil {
		t.Error(err)
	}
}

// TestAuditNoGrace: with --grace 0 given explicitly (for every operator,
// also those that document a grace) the in-grace requests count as
// disallowed.
func TestAuditNoGrace(t *testing.T) {
	robotsDir, logFile := writeScenario(t)
	res, err := Run(context.Background(), Config{Robots: robotsDir, GraceForAll: true}, []string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	for _, r := range res.Summary.Bots {
		w := scenarioWant[r.Bot]
		if r.DisallowedInGrace != 0 || r.Disallowed != w.disallowed+w.grace {
			t.Errorf("%s: disallowed %d in grace %d; want %d, 0", r.Bot, r.Disallowed, r.DisallowedInGrace, w.disallowed+w.grace)
		}
	}
}

// TestAuditGitHistory: the same versions committed to a git repository made
// by the test, each live from its commit time.
func TestAuditGitHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	robotsDir, logFile := writeScenario(t)
	repo := t.TempDir()
	git := func(env []string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(nil, "init", "-q")
	for _, name := range []string{"2026-10-01T00:00:00Z.txt", "2026-10-10T00:00:00Z.txt", "2026-10-20T00:00:00Z.txt"} {
		body, err := os.ReadFile(filepath.Join(robotsDir, "www.example.com", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(repo, "public"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "public", "robots.txt"), body, 0o644); err != nil {
			t.Fatal(err)
		}
		date := strings.TrimSuffix(name, ".txt")
		env := []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}
		git(env, "add", "public/robots.txt")
		git(env, "commit", "-q", "-m", "robots "+date)
	}
	res, err := Run(context.Background(), Config{Robots: "git:" + repo + "//public/robots.txt", Host: "www.example.com", Grace: 24 * time.Hour}, []string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	checkScenario(t, res)
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestAuditOutEmpty: with nothing to report, the CSV files still have
// their header and the block list only its comment.
func TestAuditOutEmpty(t *testing.T) {
	_, logFile := writeScenario(t)
	allowAll := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(allowAll, []byte("User-agent: *\nDisallow:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Robots: allowAll}, []string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	out := t.TempDir()
	if err := res.WriteOut(context.Background(), out, BlockPolicy{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"violations.csv", "breaches.csv"} {
		rows := readCSV(t, filepath.Join(out, f))
		if len(rows) != 1 || rows[0][0] != "ts" {
			t.Errorf("%s = %v, want the header only", f, rows)
		}
	}
	bl, err := os.ReadFile(filepath.Join(out, "blocklist.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(bl)), "\n") {
		if !strings.HasPrefix(l, "#") {
			t.Errorf("blocklist has an address %q with nothing disallowed", l)
		}
	}
}

// TestAuditLimitFromLaterVersion: a Crawl-delay that only a later version
// sets is measured against the bot's previous request made under the earlier
// version, and a bot no limit ever applies to breaches nothing, while its
// gaps are still measured for the judged view.
func TestAuditLimitFromLaterVersion(t *testing.T) {
	dir := t.TempDir()
	robotsDir := filepath.Join(dir, "robots")
	if err := os.MkdirAll(robotsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"2026-10-01T00:00:00Z.txt": "User-agent: *\nDisallow: /x/\n",
		"2026-10-10T00:00:00Z.txt": "User-agent: *\nDisallow: /x/\nCrawl-delay: 10\n\nUser-agent: bingbot\nDisallow: /y/\n",
	} {
		if err := os.WriteFile(filepath.Join(robotsDir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(dir, "access.log")
	lines := []string{
		line("66.249.66.1", "09/Oct/2026:23:59:55 +0000", "/a", uaGooglebot), // v1: no delay in force
		line("66.249.66.1", "10/Oct/2026:00:00:03 +0000", "/b", uaGooglebot), // v2: 8 s after the v1 request: short (unsupported: Google ignores Crawl-delay)
		line("66.249.66.1", "10/Oct/2026:00:00:30 +0000", "/c", uaGooglebot), // 27 s: fine
		line("157.55.39.1", "05/Oct/2026:10:00:00 +0000", "/a", uaBing),      // v1, no limit
		line("157.55.39.1", "05/Oct/2026:10:00:01 +0000", "/b", uaBing),      // 1 s later, still no limit
		line("157.55.39.1", "11/Oct/2026:10:00:00 +0000", "/c", uaBing),      // v2: bingbot's own group, no limit
	}
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := Run(ctx, Config{Robots: robotsDir, Host: "www.example.com"}, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	delays := map[string][2]int64{}
	for _, r := range res.Summary.Bots {
		delays[r.Bot] = [2]int64{r.CrawlDelayBreaches, r.CrawlDelayUnsupported}
	}
	if delays["Googlebot"] != [2]int64{0, 1} || delays["bingbot"] != [2]int64{0, 0} || len(delays) != 2 {
		t.Errorf("crawl-delay breaches and unsupported = %v, want Googlebot 0 and 1, bingbot none", delays)
	}
	if err := res.materialize(ctx); err != nil {
		t.Fatal(err)
	}
	var gaps []string
	err = res.Store().Each(ctx, `SELECT bot, coalesce(gap_us::VARCHAR, 'NULL'), crawl_delay_breach OR crawl_delay_unsupported FROM judged ORDER BY bot, ts`, nil, func(v []any) error {
		gaps = append(gaps, fmt.Sprint(v...))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"GooglebotNULLfalse", "Googlebot8000000true", "Googlebot27000000false",
		"bingbotNULLfalse", "bingbot1000000false", "bingbot518399000000false",
	}
	if strings.Join(gaps, " ") != strings.Join(want, " ") {
		t.Errorf("judged gaps:\n got %v\nwant %v", gaps, want)
	}
}
