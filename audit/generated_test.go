//go:build duckdb_arrow

package audit

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/report"
)

// genConfig is a generated month, smaller than the demo so tests stay fast.
func genConfig() loggen.Config {
	cfg := loggen.SampleConfig()
	cfg.Lines = 20000
	cfg.Seed = 7
	return cfg
}

// writeGenerated writes the generated month in format (gzip when gz) and
// the robots.txt history of its host, and returns their paths.
func writeGenerated(t *testing.T, dir, format string, gz bool) (robotsDir, log string) {
	t.Helper()
	cfg := genConfig()
	robotsDir = filepath.Join(dir, "robots")
	host := loggen.DefaultHost
	if err := os.MkdirAll(filepath.Join(robotsDir, host), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, v := range loggen.Robots(host) {
		if err := os.WriteFile(filepath.Join(robotsDir, host, v.FileName()), []byte(v.Text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log = filepath.Join(dir, "access."+format)
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var w loggen.RequestWriter
	if gz {
		w, err = loggen.NewGzipWriter(f, format)
	} else {
		w, err = loggen.NewWriter(f, format)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := loggen.Generate(cfg, w.Write); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return robotsDir, log
}

func auditGenerated(t *testing.T, format string, gz bool) report.Summary {
	t.Helper()
	robotsDir, log := writeGenerated(t, t.TempDir(), format, gz)
	res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour}, []string{log})
	if err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	defer res.Close()
	return res.Summary
}

// TestAuditSameAcrossFormats: the same requests written as combined, JSON
// lines, W3C and gzip give identical per-bot results and accounting.
func TestAuditSameAcrossFormats(t *testing.T) {
	base := auditGenerated(t, "combined", false)
	if len(base.Bots) < 15 {
		t.Fatalf("only %d bots in the generated month", len(base.Bots))
	}
	for _, c := range []struct {
		format string
		gz     bool
	}{{"jsonl", false}, {"w3c", false}, {"combined", true}, {"jsonl", true}} {
		s := auditGenerated(t, c.format, c.gz)
		if !reflect.DeepEqual(s.Bots, base.Bots) {
			for i := range s.Bots {
				if i < len(base.Bots) && !reflect.DeepEqual(s.Bots[i], base.Bots[i]) {
					t.Errorf("%s gz=%v: bot row %d = %+v\nwant %+v", c.format, c.gz, i, s.Bots[i], base.Bots[i])
					break
				}
			}
			t.Errorf("%s gz=%v: %d bot rows differ from combined's %d", c.format, c.gz, len(s.Bots), len(base.Bots))
		}
		a, b := s.Input, base.Input
		if a.Parsed != b.Parsed || a.Rejected != b.Rejected || a.BotRequests != b.BotRequests ||
			a.HumanRequests != b.HumanRequests || a.Unaudited != b.Unaudited || !a.From.Equal(*b.From) || !a.To.Equal(*b.To) {
			t.Errorf("%s gz=%v: input %+v\nwant %+v", c.format, c.gz, a, b)
		}
	}
}

// TestAuditAgainstGeneratorModel checks the audit of a generated month
// against what the generator itself says: the bot behind each request (its
// intent, not a parse of the User-Agent), and the verdict of its own small
// robots.txt matcher (independent of package robots) under the version in
// effect and the 24 h grace rule.
func TestAuditAgainstGeneratorModel(t *testing.T) {
	cfg := genConfig()
	versions := loggen.Robots(loggen.DefaultHost)
	at := func(us int64) int {
		v := -1
		for i := range versions {
			if versions[i].At.UnixMicro() <= us {
				v = i
			}
		}
		return v
	}
	type counts struct{ requests, disallowed, grace int64 }
	want := map[string]*counts{}
	const grace = int64(24 * time.Hour / time.Microsecond)
	err := loggen.Generate(cfg, func(r *loggen.Request) error {
		if r.Bot == "" {
			return nil
		}
		// An impostor's requests have a row of their own (contract §10).
		key := r.Bot + "/genuine"
		if r.Behavior == loggen.Spoofed {
			key = r.Bot + "/spoofed"
		}
		c := want[key]
		if c == nil {
			c = &counts{}
			want[key] = c
		}
		c.requests++
		us := r.Unix * 1_000_000
		v := at(us)
		if v < 0 || versions[v].Allowed(r.UserAgent, string(r.Target)) {
			return nil
		}
		if old := at(us - grace); old >= 0 && old != v && versions[old].Allowed(r.UserAgent, string(r.Target)) {
			c.grace++
		} else {
			c.disallowed++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var dis, gr int64
	for _, w := range want {
		dis, gr = dis+w.disallowed, gr+w.grace
	}
	if dis == 0 || gr == 0 {
		t.Fatalf("the generated month has %d disallowed and %d in-grace requests; the test needs both", dis, gr)
	}
	s := auditGenerated(t, "combined", false)
	got := map[string]counts{}
	// The generator's genuine crawlers come from addresses inside their
	// operators' lists of October 2026, its impostors from documentation
	// addresses; crawlers whose operators publish no list are unverified.
	listed := map[string]bool{"Googlebot": true, "Googlebot-Image": true, "bingbot": true, "Applebot": true, "AhrefsBot": true,
		"Amazonbot": true, "GPTBot": true, "ClaudeBot": true, "CCBot": true, "PerplexityBot": true}
	for _, b := range s.Bots {
		key := b.Bot + "/genuine"
		if b.Identity == report.IdentitySpoofed {
			key = b.Bot + "/spoofed"
		} else if want := map[bool]string{true: report.IdentityVerified, false: report.IdentityUnverified}[listed[b.Bot]]; b.Identity != want {
			t.Errorf("%s: identity %s, want %s", b.Bot, b.Identity, want)
		}
		if _, dup := got[key]; dup {
			t.Errorf("%s: two rows of one identity", key)
		}
		got[key] = counts{b.Requests, b.Disallowed, b.DisallowedInGrace}
	}
	for bot, w := range want {
		if g := got[bot]; g != *w {
			t.Errorf("%s: audit %+v, generator model %+v", bot, g, *w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("audit names %d bots, the generator %d: %v vs %v", len(got), len(want), keys(got), keys(want))
	}
}
