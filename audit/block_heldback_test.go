//go:build duckdb_arrow

package audit

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/report/firewall"
	"github.com/crawlaudit/crawlaudit/verify"
)

// heldRobots gives AhrefsBot a group of its own that closes the site, and
// everyone else /private/.
const heldRobots = "User-agent: AhrefsBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"

// logLine is one combined log line.
func logLine(ip string, at time.Time, path, ua string) string {
	return fmt.Sprintf("%s - - [%s] \"GET %s HTTP/1.1\" 200 512 \"-\" \"%s\"\n", ip, at.Format("02/Jan/2006:15:04:05 -0700"), path, ua)
}

// newestPrefix returns the first IPv4 prefix of the newest list of the
// named source of the built-in snapshot.
func newestPrefix(t *testing.T, r *verify.Ranges, source string) netip.Prefix {
	t.Helper()
	s := r.Source(source)
	if s == nil || len(s.Versions) == 0 {
		t.Fatalf("snapshot: no source %s", source)
	}
	for _, p := range s.Versions[len(s.Versions)-1].Prefixes() {
		if p.Addr().Is4() {
			return p
		}
	}
	t.Fatalf("snapshot: %s has no IPv4 prefix", source)
	return netip.Prefix{}
}

// inAnyList reports whether a lies in some list of any source of r.
func inAnyList(r *verify.Ranges, a netip.Addr) bool {
	for _, s := range r.Sources() {
		for _, v := range s.Versions {
			if _, ok := v.Lookup(a); ok {
				return true
			}
		}
	}
	return false
}

// runLog audits the given log text under heldRobots.
func runLog(t *testing.T, log string, seen bool) *Result {
	t.Helper()
	dir := t.TempDir()
	robotsFile, logFile := filepath.Join(dir, "robots.txt"), filepath.Join(dir, "access.log")
	if err := os.WriteFile(robotsFile, []byte(heldRobots), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logFile, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Robots: robotsFile, SeenClients: seen}, []string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	return res
}

// TestBlockListHeldBack: on a generated month, verified crawlers that broke
// rules are held back and named with what they did and the rule, an
// impostor is written, and summary.json's "blocklist" counts both; with
// --block-verified nothing is held back.
func TestBlockListHeldBack(t *testing.T) {
	snap, err := verify.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	ahrefs := newestPrefix(t, snap, "ahrefs").Addr().Next()
	google := newestPrefix(t, snap, "google-common-crawlers").Addr().Next()
	const impostor = "203.0.113.7"
	t0 := time.Date(2026, 10, 3, 8, 0, 0, 0, time.UTC)
	var b strings.Builder
	for i := 0; i < 6; i++ {
		at := t0.Add(time.Duration(i) * time.Minute)
		b.WriteString(logLine(ahrefs.String(), at, fmt.Sprintf("/page/%d", i), uaAhrefs))
		b.WriteString(logLine(google.String(), at.Add(time.Second), fmt.Sprintf("/private/%d", i%2), uaGooglebot))
		b.WriteString(logLine(google.String(), at.Add(2*time.Second), "/public", uaGooglebot))
		b.WriteString(logLine(impostor, at.Add(3*time.Second), "/private/x", uaGooglebot))
	}
	res := runLog(t, b.String(), false)
	ctx := context.Background()

	l, _, err := res.BlockList(ctx, BlockPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, e := range l.Entries {
		listed = append(listed, e.Addr.String())
	}
	if !slices.Equal(listed, []string{impostor}) {
		t.Errorf("listed %v, want only the impostor %s", listed, impostor)
	}
	got := res.Summary.Blocklist
	if got == nil {
		t.Fatal("no summary.json blocklist")
	}
	if got.Written != 1 || got.HeldBackVerified != 2 || got.HeldBackAllowList != 0 || got.HeldBackSpecial != 0 {
		t.Errorf("blocklist = %+v, want written 1, held back verified 2", *got)
	}
	byBot := map[string]report.HeldBackCrawler{}
	for _, c := range got.HeldBackCrawlers {
		byBot[c.Bot] = c
	}
	if c := byBot["AhrefsBot"]; c.Addresses != 1 || c.Requests["disallowed"] != 6 || c.Group != "ahrefsbot" || c.Rule != "Disallow: /" || c.Line != 2 {
		t.Errorf("AhrefsBot held back as %+v, want 1 address, 6 disallowed under its own group's Disallow: / (line 2)", c)
	}
	if c := byBot["Googlebot"]; c.Addresses != 1 || c.Requests["disallowed"] != 6 || c.Group != "*" || c.Rule != "Disallow: /private/" || c.Operator != "Google" {
		t.Errorf("Googlebot held back as %+v, want 1 address, 6 disallowed under * Disallow: /private/", c)
	}
	if len(got.HeldBackCrawlers) != 2 {
		t.Errorf("held back crawlers %v, want AhrefsBot and Googlebot", got.HeldBackCrawlers)
	}

	// The reports name them, with the levers.
	f, err := res.Findings(ctx, BlockPolicy{}, ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Join(f.Block.HeldBackLines(), "\n")
	for _, want := range []string{"AhrefsBot (Ahrefs): 1 address, 6 disallowed requests, under its own group ahrefsbot (Disallow: / at line 2), which it ignores",
		"Googlebot (Google): 1 address, 6 disallowed requests, under the * group (Disallow: /private/ at line 5)"} {
		if !strings.Contains(lines, want) {
			t.Errorf("held-back lines %q lack %q", lines, want)
		}
	}
	if txt := f.Block.HeldBackText(); !strings.Contains(txt, "Held back: 2 addresses") || !strings.Contains(txt, "--block-verified") {
		t.Errorf("held-back text %q", txt)
	}

	// --block-verified: they are listed, nothing is held back.
	l, _, err = res.BlockList(ctx, BlockPolicy{Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 3 || res.Summary.Blocklist.HeldBackVerified != 0 || len(res.Summary.Blocklist.HeldBackCrawlers) != 0 {
		t.Errorf("--block-verified: %d entries, blocklist %+v; want 3 and nothing held back", len(l.Entries), *res.Summary.Blocklist)
	}

	// The allow list and never-blocked addresses are counted too.
	l, _, err = res.BlockList(ctx, BlockPolicy{Allow: []netip.Prefix{netip.MustParsePrefix("203.0.113.0/24")}})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Summary.Blocklist; len(l.Entries) != 0 || s.Written != 0 || s.HeldBackAllowList != 1 || s.HeldBackVerified != 2 {
		t.Errorf("allow list: %d entries, blocklist %+v; want 0, 1 held back by the allow list", len(l.Entries), *s)
	}
}

// TestBlockAggregateProtectsRanges: a qualifying address in the same /16
// as a published Googlebot range is never merged into a prefix over it,
// though --block-aggregate /16 would take the whole /16 otherwise.
func TestBlockAggregateProtectsRanges(t *testing.T) {
	snap, err := verify.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	google := newestPrefix(t, snap, "google-common-crawlers")
	sixteen, _ := google.Addr().Prefix(16)
	// An address of the same /16 in no list: its requests are spoofed.
	var spoof netip.Addr
	for a := sixteen.Addr(); sixteen.Contains(a); a = a.Next() {
		if !inAnyList(snap, a) && a.As4()[3] != 0 {
			spoof = a
			break
		}
	}
	if !spoof.IsValid() {
		t.Skipf("every address of %v is in a list", sixteen)
	}
	t0 := time.Date(2026, 10, 3, 8, 0, 0, 0, time.UTC)
	log := logLine(spoof.String(), t0, "/private/a", uaGooglebot) + logLine(spoof.String(), t0.Add(time.Minute), "/private/b", uaGooglebot)
	res := runLog(t, log, true)
	l, _, err := res.BlockList(context.Background(), BlockPolicy{Widest: firewall.Widest{V4: 16}})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Blocks) != 1 || !l.Blocks[0].Prefix.Contains(spoof) {
		t.Fatalf("blocks %v, want one over %v", l.Blocks, spoof)
	}
	p := l.Blocks[0].Prefix
	for _, s := range snap.Sources() {
		if !s.Authoritative || len(s.Versions) == 0 {
			continue
		}
		for _, q := range s.Versions[len(s.Versions)-1].Prefixes() {
			if p.Overlaps(q) {
				t.Errorf("%v overlaps %s's published %v", p, s.Name, q)
			}
		}
	}
	if p.Bits() <= 16 {
		t.Errorf("%v: widened to the whole /16 over %v", p, google)
	}
	t.Logf("spoofed Googlebot %v blocked as %v, not %v (Google's %v)", spoof, p, sixteen, google)
}

// TestBlockListPredating: a generated 2015 log, older than every list: the
// Googlebot impostor is unverified (never spoofed), a warning says identity
// could not be settled, and the block list takes it for its disallowed
// requests only, marked as predating the lists.
func TestBlockListPredating(t *testing.T) {
	t0 := time.Date(2015, 5, 17, 10, 0, 0, 0, time.UTC)
	const impostor = "203.0.113.9"
	var b strings.Builder
	for i := 0; i < 3; i++ {
		b.WriteString(logLine(impostor, t0.Add(time.Duration(i)*time.Minute), "/private/x", uaGooglebot))
		b.WriteString(logLine("198.51.100.20", t0.Add(time.Duration(i)*time.Minute+time.Second), "/public", uaGooglebot))
	}
	res := runLog(t, b.String(), false)
	if n := res.Summary.Verification.Identities["spoofed"]; n != 0 {
		t.Errorf("%d requests spoofed before every list", n)
	}
	p := res.Summary.Verification.Predating
	if p == nil || p.Requests != 6 || !slices.Equal(p.Bots, []string{"Googlebot"}) || !slices.Equal(p.Operators, []string{"Google"}) {
		t.Fatalf("predating = %+v, want 6 Googlebot requests of Google", p)
	}
	want := "Identity could not be settled for 6 requests (Googlebot): the logs (2015) predate every published range list of Google"
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.HasPrefix(w, want) }) {
		t.Errorf("warnings %q lack %q", res.Warnings, want)
	}
	// Only spoofed: nothing (unverified is not spoofed).
	l, _, err := res.BlockList(context.Background(), BlockPolicy{On: []string{"spoofed"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 0 {
		t.Errorf("--block-on spoofed listed %v", l.Entries)
	}
	// Disallowed: the impostor, marked.
	l, _, err = res.BlockList(context.Background(), BlockPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 1 || l.Entries[0].Addr.String() != impostor || len(l.Entries[0].Claims) != 1 || !l.Entries[0].Claims[0].Predates {
		t.Fatalf("entries %+v, want %s marked as predating", l.Entries, impostor)
	}
	if r := l.Blocks[0].Reason(); r != "disallowed 3: Googlebot unverified (logs predate its published ranges)" {
		t.Errorf("reason %q", r)
	}
	if res.Summary.Blocklist.Predating != 1 || !slices.ContainsFunc(l.Meta.Lines(l), func(s string) bool { return strings.HasPrefix(s, "unverified: 1 addresses") }) {
		t.Errorf("blocklist %+v, header %q: want 1 predating address said", *res.Summary.Blocklist, l.Meta.Lines(l))
	}
}

// TestBlockListPredatingReal2015: the real 2015 Elastic log predates every
// list: nothing is spoofed, the warning names Google, and every listed
// address that claimed Googlebot is marked as predating the lists.
func TestBlockListPredatingReal2015(t *testing.T) {
	log := shareddata.Path(t, "real-logs/elastic-apache-semicomplete-2015/apache_logs.gz")
	robotsFile := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(robotsFile, []byte(realRobots), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Robots: robotsFile}, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if n := res.Summary.Verification.Identities["spoofed"]; n != 0 {
		t.Errorf("2015: %d requests spoofed", n)
	}
	p := res.Summary.Verification.Predating
	if p == nil || !slices.Contains(p.Operators, "Google") || !slices.Contains(p.Bots, "Googlebot") || p.From.Year() != 2015 {
		t.Fatalf("2015: predating = %+v, want Googlebot of Google in 2015", p)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool {
		return strings.Contains(w, "the logs (2015) predate every published range list of Google")
	}) {
		t.Errorf("2015: warnings %q say nothing of the lists", res.Warnings)
	}
	l, _, err := res.BlockList(context.Background(), BlockPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range l.Entries {
		for _, c := range e.Claims {
			if c.Bot == "Googlebot" && (c.Identity != "unverified" || !c.Predates) {
				t.Errorf("2015: %v listed as %+v, want unverified, predating the lists", e.Addr, c)
			}
		}
	}
	if res.Summary.Blocklist.Predating == 0 {
		t.Errorf("2015: blocklist %+v marks no address as predating", *res.Summary.Blocklist)
	}
	t.Logf("2015: %s; block list %+v", p.Sentence(), *res.Summary.Blocklist)
}
