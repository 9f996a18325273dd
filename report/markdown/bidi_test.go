package markdown

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
)

// TestNoControlOrBidi writes report.md of findings whose strings from logs
// hold control and bidirectional characters: none may reach the file,
// where a U+202E would show the rest of a line reversed.
func TestNoControlOrBidi(t *testing.T) {
	for _, s := range []string{"Evil\u202eBot", "a\x1b[2Jb", "\u2066x\u2069\u200e\u200f\u061c", "line\nbreak\u0085", "\u202a\u202b\u202c\u202d\u2067\u2068"} {
		day := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
		row := report.BotRow{Bot: s, Host: s, Identity: report.IdentitySpoofed, Operator: s, Purpose: s, Requests: 3, Disallowed: 2, Verdict: report.VerdictSpoofed}
		sum := &report.Summary{Input: report.Input{Lines: 3, Parsed: 3, From: &day, To: &day},
			Robots: []report.RobotsHost{{Host: s, Versions: 1}}, Bots: []report.BotRow{row},
			Audit:   report.AuditInfo{Spec: "rfc9309", Robots: s},
			Changes: []report.Change{{Host: s, Bot: s, Identity: s, At: day, AddedRules: []string{s}}}}
		f := &report.Findings{Summary: sum, Tool: "crawlaudit test", Generated: day, Limits: report.DefaultLimits,
			Days: []time.Time{day}, Rows: []report.BotFindings{{BotRow: row}},
			Rules:    []report.BrokenRule{{Host: s, Version: s, Line: 1, Rule: s, Requests: 2, Bots: []report.Count{{Value: s, N: 2}}, BotsTotal: 1}},
			Paths:    []report.BotPaths{{Label: s, Bot: s, Host: s, Disallowed: 2, Paths: []report.PathCount{{Path: s, N: 2, Rule: s, Line: 1}}, PathsTotal: 1}},
			Breaches: []report.BreachGroup{{Label: s, Bot: s, Host: s, Kind: "crawl-delay", Limit: s, Unit: s, N: 1, Worst: s, Median: s}},
			Block:    report.BlockFindings{Files: []string{s}, Kinds: []string{s}, Addresses: 1, Blocks: 1, Entries: []report.BlockEntry{{Addr: s, Reasons: s, Claims: []string{s}}}},
			Versions: []report.RobotsVersion{{Host: s, Name: s, First: true}},
			Preferences: []report.PrefVersion{{Host: s, Name: s, Start: day,
				Statements: []report.PreferenceStatement{{Directive: "Content-Usage", Group: s, Path: s, Value: s, Prefs: map[string]string{"train-ai": "n"}, Line: 1}},
				Rows:       []report.PrefExposure{{Bot: s, Purpose: s, Identity: "verified", Requests: 2, Exposed: 1}}, RowsTotal: 1}},
		}
		f.Headlines = report.Headlines(f)
		var buf bytes.Buffer
		if err := Write(&buf, f); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for i, r := range out {
			if unsafeRune(r) {
				t.Errorf("%q: report.md holds %U at byte %d: %q", s, r, i, out[max(0, i-40):min(len(out), i+40)])
				break
			}
		}
		if !strings.Contains(out, report.Printable(s, 0)) && !strings.Contains(out, strings.ReplaceAll(report.Printable(s, 0), `\`, `\\`)) {
			t.Errorf("%q: report.md does not show it as %q", s, report.Printable(s, 0))
		}
		checkTables(t, out)
	}
}

// unsafeRune reports whether r is a control character other than a line
// break, or a bidirectional control.
func unsafeRune(r rune) bool {
	switch {
	case r == '\n':
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0, r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
		return true
	}
	return false
}
