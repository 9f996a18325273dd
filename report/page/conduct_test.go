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
	var b bytes.Buffer
	if err := Write(&b, f); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	start := strings.Index(page, `<section id="conduct">`)
	if start < 0 {
		t.Fatal("no conduct section")
	}
	sec := page[start:]
	sec = sec[:strings.Index(sec, "</section>")]
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
