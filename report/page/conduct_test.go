package page

import (
	"bytes"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/report"
)

// TestConductSection: a crawler that hammers a failing site and one that
// revalidates politely (draft-illyes-webbotauth-cbcp-01 §2.3 and §2.4) are
// told apart in the conduct section: the hammering one first and marked,
// with its bytes and status mix; the polite one's 304 share and daily
// refetch shown.
func TestConductSection(t *testing.T) {
	f := hostileFindings("example.com")
	share, day, tenSec := 0.74, 24.0, 10.0/3600
	hammer := report.BotRow{Bot: "HammerBot", Host: "example.com", Identity: "unverified", Requests: 1341, Bytes: 12769540,
		Status:  report.StatusMix{S2xx: 621, S5xx: 720},
		Conduct: report.Conduct{ErrorAnswers: 720, NoBackoff: 719, RepeatFetches: 720, RefetchHoursMedian: &tenSec, OtherMethods: 1, Contact: true}}
	polite := report.BotRow{Bot: "PoliteBot", Host: "example.com", Identity: "verified", Requests: 127, Bytes: 49744,
		Status:  report.StatusMix{S2xx: 34, S304: 91, S5xx: 2},
		Conduct: report.Conduct{ErrorAnswers: 2, RepeatFetches: 123, NotModified: 91, NotModifiedShare: &share, RefetchHoursMedian: &day, Contact: true, PublishesRanges: true}}
	f.Summary.Bots = []report.BotRow{polite, hammer}
	sec := pageSection(t, f, "conduct")
	h, p := strings.Index(sec, "HammerBot"), strings.Index(sec, "PoliteBot")
	if h < 0 || p < 0 || h > p {
		t.Fatalf("HammerBot at %d, PoliteBot at %d: the one that did not back off comes first", h, p)
	}
	for _, want := range []string{`<tr class="bad"><th scope="row">HammerBot`, ">12.2 MiB<", ">719<", ">10 s<", ">74%<", ">24.0 h<", ">48.6 KiB<"} {
		if !strings.Contains(sec, want) {
			t.Errorf("conduct section lacks %q:\n%s", want, sec)
		}
	}
	if strings.Contains(sec[p:], `class="bad"`) {
		t.Error("PoliteBot is marked")
	}
}

// TestConductSigns: the conduct section has a "signs" column when the log
// records signatures (summary.json has "signatures"), and none when it
// does not, where it could say nothing.
func TestConductSigns(t *testing.T) {
	yes, no := true, false
	for _, recorded := range []bool{false, true} {
		f := hostileFindings("example.com")
		f.Summary.Bots = []report.BotRow{
			{Bot: "ChatGPT-User", Host: "example.com", Identity: "verified", Requests: 4, Signed: 4, Conduct: report.Conduct{Signs: &yes}},
			{Bot: "<b>Unsigned</b>", Host: "example.com", Identity: "unverified", Requests: 2, Conduct: report.Conduct{Signs: &no}},
		}
		if recorded {
			f.Summary.Signatures = []report.SignatureRow{{Signer: "https://chatgpt.com", Key: "k", Status: "valid", Requests: 4, Bots: []string{"ChatGPT-User"}}}
		}
		sec := pageSection(t, f, "conduct")
		has := strings.Contains(sec, `>signs</th>`)
		if has != recorded {
			t.Errorf("log records signatures %v: signs column %v", recorded, has)
			continue
		}
		if strings.Contains(sec, "<b>Unsigned</b>") {
			t.Error("a bot name is not escaped")
		}
		if recorded {
			for _, want := range []string{`ChatGPT-User</th>`, `<td>yes</td></tr>`, `&lt;b&gt;Unsigned&lt;/b&gt;</th>`} {
				if !strings.Contains(sec, want) {
					t.Errorf("conduct section lacks %q:\n%s", want, sec)
				}
			}
			u := sec[strings.Index(sec, "Unsigned"):]
			if !strings.Contains(u[:strings.Index(u, "</tr>")], "<td>no</td>") {
				t.Errorf("the unsigned row does not say no:\n%s", u)
			}
		}
	}
}

// pageSection returns the section id of the page of f, from its opening
// tag to its end.
func pageSection(t *testing.T, f *report.Findings, id string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, f); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	start := strings.Index(page, `<section id="`+id+`">`)
	if start < 0 {
		t.Fatalf("the page has no section %s", id)
	}
	sec := page[start:]
	return sec[:strings.Index(sec, "</section>")]
}
