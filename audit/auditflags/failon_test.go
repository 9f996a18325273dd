package auditflags

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/report"
)

// TestFailOn checks --fail-on's kinds (contract: a nonzero exit for cron
// and CI when a bot row has a finding of one of them) on summary rows.
func TestFailOn(t *testing.T) {
	rows := &report.Summary{Bots: []report.BotRow{
		{Bot: "ExampleBot", Host: "www.example.com", Requests: 10, Disallowed: 3},
		{Bot: "Googlebot", Host: "www.example.com", Identity: report.IdentitySpoofed, Requests: 7},
		{Bot: "SlowBot", Host: "", Requests: 5, CrawlDelayBreaches: 2, VisitTimeBreaches: 1},
		{Bot: "GraceBot", Host: "www.example.com", Requests: 4, DisallowedInGrace: 4},
	}}
	for _, c := range []struct {
		kinds string
		want  []string // the bots with a finding, in row order
	}{
		{"disallowed", []string{"ExampleBot"}},
		{"spoofed", []string{"Googlebot"}},
		{"breaches", []string{"SlowBot"}},
		{"crawl-delay,visit-time", []string{"SlowBot"}},
		{"request-rate", nil},
		{" In-Grace , disallowed ", []string{"ExampleBot", "GraceBot"}},
		{"", nil},
	} {
		kinds, err := ParseFailOn(c.kinds)
		if err != nil {
			t.Fatalf("%q: %v", c.kinds, err)
		}
		var got []string
		for _, l := range FailFindings(rows, kinds) {
			got = append(got, strings.Fields(l)[0])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("--fail-on %q: findings of %q, want %q", c.kinds, got, c.want)
		}
	}
	if found := FailFindings(rows, []int{2}); len(found) != 1 || !strings.Contains(found[0], "(no host)") || !strings.Contains(found[0], "breaches 3") {
		t.Errorf("breaches row: %q", found)
	}
	if _, err := ParseFailOn("disallowed,bogus"); err == nil || !strings.Contains(err.Error(), `"bogus"`) || !strings.Contains(err.Error(), "in-grace") {
		t.Errorf("unknown kind: %v", err)
	}
}

// TestMissingLogs checks the LOG arguments refused before an audit starts:
// a path that does not exist, a glob that matches nothing or is malformed.
func TestMissingLogs(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "access.log.1")
	if err := os.WriteFile(log, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		logs []string
		want string // in the error; "" for none
	}{
		{[]string{log, dir, "-"}, ""},
		{[]string{filepath.Join(dir, "access.log.*")}, ""},
		{[]string{log, filepath.Join(dir, "error.log")}, "error.log"},
		{[]string{filepath.Join(dir, "other.log.*")}, "no file matches"},
		{[]string{filepath.Join(dir, "access[.log")}, "bad pattern"},
	} {
		err := MissingLogs(c.logs)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.logs, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: error %v, want %q in it", c.logs, err, c.want)
		}
	}
}
