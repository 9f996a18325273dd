package markdown

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
)

// TestConductSigns: the conduct table of report.md has a "signs" column,
// yes or no per row, when the log records signatures, and none when it
// does not (docs/conduct.md, "conduct.signs").
func TestConductSigns(t *testing.T) {
	day := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	yes, no := true, false
	for _, recorded := range []bool{false, true} {
		s := &report.Summary{Input: report.Input{From: &day, To: &day}, Bots: []report.BotRow{
			{Bot: "ChatGPT-User", Host: "example.com", Identity: "verified", Requests: 4, Signed: 4, Conduct: report.Conduct{Signs: &yes}},
			{Bot: "Un|signed", Host: "example.com", Identity: "unverified", Requests: 2, Conduct: report.Conduct{Signs: &no}},
		}}
		if recorded {
			s.Signatures = []report.SignatureRow{{Signer: "https://chatgpt.com", Key: "k", Status: "valid", Requests: 4, Bots: []string{"ChatGPT-User"}}}
		}
		var buf bytes.Buffer
		if err := Write(&buf, &report.Findings{Summary: s, Limits: report.DefaultLimits, Generated: day}); err != nil {
			t.Fatal(err)
		}
		md := buf.String()
		sec := md[strings.Index(md, "## Conduct"):]
		sec = sec[:strings.Index(sec[3:], "\n## ")+3]
		checkTables(t, sec)
		if got := strings.Contains(sec, "| signs |"); got != recorded {
			t.Errorf("log records signatures %v: signs column %v:\n%s", recorded, got, sec)
			continue
		}
		if !recorded {
			continue
		}
		for _, c := range []struct{ bot, want string }{{"ChatGPT-User", "| yes |"}, {`Un\|signed`, "| no |"}} {
			i := strings.Index(sec, c.bot)
			if i < 0 {
				t.Fatalf("no row of %s:\n%s", c.bot, sec)
			}
			i = strings.LastIndex(sec[:i], "\n") + 1
			line := sec[i : i+strings.Index(sec[i:], "\n")]
			if !strings.HasSuffix(line, c.want) {
				t.Errorf("row of %s ends %q, want %q", c.bot, line, c.want)
			}
		}
	}
}
