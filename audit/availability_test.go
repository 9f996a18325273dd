//go:build duckdb_arrow

package audit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
)

// statusLine is a combined log line with its status.
func statusLine(ip, ts, target string, status int, ua string) string {
	return ip + ` - - [` + ts + `] "GET ` + target + ` HTTP/1.1" ` + itoa(status) + ` 512 "-" "` + ua + `"`
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

const uaGooglebotImage = "Googlebot-Image/1.0"

// availabilityAudit audits lines against one robots.txt version in effect
// from 2026-10-01.
func availabilityAudit(t *testing.T, robotsTxt string, lines []string, cfg Config) *Result {
	t.Helper()
	dir := t.TempDir()
	robotsDir := filepath.Join(dir, "robots")
	if err := os.MkdirAll(robotsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(robotsDir, "2026-10-01T00:00:00Z.txt"), []byte(robotsTxt), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "access.log")
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Robots, cfg.Host = robotsDir, "www.example.com"
	res, err := Run(context.Background(), cfg, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	return res
}

// rowOf returns the bot row of bot with identity.
func rowOf(t *testing.T, s *report.Summary, bot, identity string) report.BotRow {
	t.Helper()
	for _, r := range s.Bots {
		if r.Bot == bot && r.Identity == identity {
			return r
		}
	}
	t.Fatalf("no row for %s (%s) in %+v", bot, identity, s.Bots)
	return report.BotRow{}
}

// TestAvailabilityScenario is a hand-made scenario: a site that
// served 503 for its robots.txt to Googlebot for 3 hours and 404 to bingbot
// for a day, with each crawler's requests before, during and after. Every
// expected number is worked out by hand from the comments (RFC 9309
// §2.3.1.3-4), not by running the code.
func TestAvailabilityScenario(t *testing.T) {
	const robotsTxt = "User-agent: *\nDisallow: /private/\n"
	const (
		google  = "66.249.66.1"  // in Google's published googlebot ranges: verified
		google2 = "66.249.66.2"  // ditto
		spoofer = "203.0.113.9"  // outside them: a spoofed Googlebot
		bing    = "157.55.39.10" // in Bing's published ranges: verified
	)
	lines := []string{
		statusLine(google, "10/Oct/2026:08:00:00 +0000", "/robots.txt", 200, uaGooglebot),    // fetch, ok
		statusLine(google, "10/Oct/2026:09:00:00 +0000", "/a", 200, uaGooglebot),             // allowed
		statusLine(google, "10/Oct/2026:09:30:00 +0000", "/private/x", 200, uaGooglebot),     // disallowed
		statusLine(google, "10/Oct/2026:10:00:00 +0000", "/robots.txt", 503, uaGooglebot),    // fetch: opens Google's unreachable period
		statusLine(google, "10/Oct/2026:10:30:00 +0000", "/b", 200, uaGooglebot),             // unreachable: disallowed_unreachable
		statusLine(spoofer, "10/Oct/2026:10:45:00 +0000", "/e", 200, uaGooglebot),            // spoofed: not Google's, allowed
		statusLine(spoofer, "10/Oct/2026:10:50:00 +0000", "/robots.txt", 503, uaGooglebot),   // spoofed fetch: opens nothing
		statusLine(google, "10/Oct/2026:11:00:00 +0000", "/private/y", 200, uaGooglebot),     // unreachable (not also disallowed)
		statusLine(google2, "10/Oct/2026:11:30:00 +0000", "/img.png", 200, uaGooglebotImage), // Googlebot-Image, same operator: unreachable
		statusLine(google, "10/Oct/2026:12:59:59 +0000", "/c", 200, uaGooglebot),             // unreachable
		statusLine(google, "10/Oct/2026:13:00:00 +0000", "/robots.txt", 200, uaGooglebot),    // fetch: closes it after 3 hours
		statusLine(spoofer, "10/Oct/2026:13:10:00 +0000", "/robots.txt", 503, uaGooglebot),   // spoofed fetch: opens nothing
		statusLine(spoofer, "10/Oct/2026:13:15:00 +0000", "/f", 200, uaGooglebot),            // spoofed, allowed
		statusLine(google, "10/Oct/2026:13:30:00 +0000", "/d", 200, uaGooglebot),             // allowed again
		statusLine(google, "10/Oct/2026:14:00:00 +0000", "/private/z", 200, uaGooglebot),     // disallowed

		statusLine(bing, "10/Oct/2026:08:00:00 +0000", "/robots.txt", 200, uaBing), // fetch, ok
		statusLine(bing, "10/Oct/2026:09:00:00 +0000", "/private/a", 200, uaBing),  // disallowed
		statusLine(bing, "10/Oct/2026:12:00:00 +0000", "/robots.txt", 404, uaBing), // fetch: opens Microsoft's unavailable period
		statusLine(bing, "10/Oct/2026:12:30:00 +0000", "/private/b", 200, uaBing),  // unavailable: allowed_unavailable
		statusLine(bing, "10/Oct/2026:20:00:00 +0000", "/g", 200, uaBing),          // unavailable, but allowed anyway
		statusLine(bing, "11/Oct/2026:12:00:00 +0000", "/robots.txt", 200, uaBing), // fetch: closes it after a day
		statusLine(bing, "11/Oct/2026:12:30:00 +0000", "/private/c", 200, uaBing),  // disallowed
	}
	for _, spec := range []robots.Profile{robots.RFC9309, robots.Google} {
		t.Run(spec.String(), func(t *testing.T) {
			// The 3-hour outage is within Google's 12 hours: both read it the same.
			res := availabilityAudit(t, robotsTxt, lines, Config{Profile: spec})
			s := &res.Summary
			type counts struct{ requests, robots, disallowed, unreachable, unavailable int64 }
			for _, c := range []struct {
				bot, identity string
				want          counts
			}{
				{"Googlebot", report.IdentityVerified, counts{10, 3, 2, 3, 0}},
				{"Googlebot-Image", report.IdentityVerified, counts{1, 0, 0, 1, 0}},
				{"Googlebot", report.IdentitySpoofed, counts{4, 2, 0, 0, 0}},
				{"bingbot", report.IdentityVerified, counts{7, 3, 2, 0, 1}},
			} {
				r := rowOf(t, s, c.bot, c.identity)
				got := counts{r.Requests, r.RobotsFetches, r.Disallowed, r.DisallowedUnreachable, r.AllowedUnavailable}
				if got != c.want {
					t.Errorf("%s (%s): requests, robots, disallowed, unreachable, unavailable = %v, want %v", c.bot, c.identity, got, c.want)
				}
			}
			if rowOf(t, s, "Googlebot", report.IdentityVerified).Verdict != report.VerdictIgnoresRobots {
				t.Errorf("Googlebot's verdict is not disallowed")
			}
			at := func(s string) time.Time {
				v, err := time.Parse(time.RFC3339, s)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			want := []report.RobotsPeriod{
				{Host: "www.example.com", Operator: "Google", Kind: report.PeriodUnreachable, From: at("2026-10-10T10:00:00Z"), Status: 503, Bot: "Googlebot", Line: 4, Requests: 4, Affected: 4},
				{Host: "www.example.com", Operator: "Microsoft", Kind: report.PeriodUnavailable, From: at("2026-10-10T12:00:00Z"), Status: 404, Bot: "bingbot", Line: 18, Requests: 2, Affected: 1},
			}
			// --block-on unreachable: the verified Google addresses only
			// with --block-verified; never the spoofer, whose requests no
			// period judged.
			for _, verified := range []bool{false, true} {
				l, _, err := res.BlockList(context.Background(), BlockPolicy{On: []string{"unreachable"}, Verified: verified})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, e := range l.Entries {
					got = append(got, e.Addr.String())
				}
				want := ""
				if verified {
					want = google + " " + google2
				}
				if strings.Join(got, " ") != want {
					t.Errorf("block list (verified %v) = %v, want %q", verified, got, want)
				}
			}
			to := []time.Time{at("2026-10-10T13:00:00Z"), at("2026-10-11T12:00:00Z")}
			if len(s.RobotsStatus) != len(want) {
				t.Fatalf("robots_status = %+v, want %d periods", s.RobotsStatus, len(want))
			}
			for i, p := range s.RobotsStatus {
				if p.To == nil || !p.To.Equal(to[i]) {
					t.Errorf("period %d ends %v, want %v", i, p.To, to[i])
				}
				p.To, p.File = nil, ""
				if p != want[i] {
					t.Errorf("period %d = %+v, want %+v", i, p, want[i])
				}
			}
		})
	}
}

// TestAvailabilityLongOutage: a robots.txt unreachable for longer than 12
// hours and 30 days. RFC 9309 §2.3.1.4: complete disallow while it is
// unreachable, for 30 days at most (then the crawler may use its cached
// copy: the version's verdict). Google (robots.txt specification, "5xx"):
// complete disallow for the first 12 hours only, then the last good copy.
func TestAvailabilityLongOutage(t *testing.T) {
	const robotsTxt = "User-agent: *\nDisallow: /private/\n"
	const google = "66.249.66.1"
	lines := []string{
		statusLine(google, "02/Oct/2026:00:00:00 +0000", "/robots.txt", 500, uaGooglebot), // opens: unreachable
		statusLine(google, "02/Oct/2026:01:00:00 +0000", "/a", 200, uaGooglebot),          // +1 h: unreachable under both
		statusLine(google, "02/Oct/2026:13:00:00 +0000", "/b", 200, uaGooglebot),          // +13 h: unreachable; google: allowed
		statusLine(google, "02/Oct/2026:14:00:00 +0000", "/private/1", 200, uaGooglebot),  // +14 h: unreachable; google: disallowed
		statusLine(google, "20/Oct/2026:00:00:00 +0000", "/robots.txt", 503, uaGooglebot), // still unreachable: no new period
		statusLine(google, "31/Oct/2026:23:59:59 +0000", "/c", 200, uaGooglebot),          // +29 d 23:59:59: unreachable; google: allowed
		statusLine(google, "01/Nov/2026:00:00:00 +0000", "/d", 200, uaGooglebot),          // +30 d: the period is over: allowed
		statusLine(google, "01/Nov/2026:00:00:01 +0000", "/private/2", 200, uaGooglebot),  // disallowed
	}
	for _, c := range []struct {
		spec                                robots.Profile
		disallowed, unreachable, allowedAll int64
	}{
		{robots.RFC9309, 1, 4, 0},
		{robots.Google, 2, 1, 0},
	} {
		t.Run(c.spec.String(), func(t *testing.T) {
			res := availabilityAudit(t, robotsTxt, lines, Config{Profile: c.spec})
			r := rowOf(t, &res.Summary, "Googlebot", report.IdentityVerified)
			if r.Disallowed != c.disallowed || r.DisallowedUnreachable != c.unreachable {
				t.Errorf("disallowed %d, unreachable %d; want %d, %d", r.Disallowed, r.DisallowedUnreachable, c.disallowed, c.unreachable)
			}
			if len(res.Summary.RobotsStatus) != 1 {
				t.Fatalf("robots_status = %+v, want one period", res.Summary.RobotsStatus)
			}
			p := res.Summary.RobotsStatus[0]
			wantTo := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
			if p.Kind != report.PeriodUnreachable || p.Status != 500 || p.To == nil || !p.To.Equal(wantTo) {
				t.Errorf("period = %+v (to %v), want unreachable from the 500, to %v", p, p.To, wantTo)
			}
			if p.Requests != 4 || p.Affected != c.unreachable {
				t.Errorf("period requests %d, affected %d; want 4, %d", p.Requests, p.Affected, c.unreachable)
			}
		})
	}
}
