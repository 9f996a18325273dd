package markdown

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
)

// TestCrawlDelayIgnoredNote: the breaches section says Crawl-delay has no
// effect on a crawler whose operator ignores it, and where the operator's
// own control is; a bot name or address that could break the Markdown is
// escaped.
func TestCrawlDelayIgnoredNote(t *testing.T) {
	day := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		note report.CrawlDelayNote
		want string
	}{
		{report.CrawlDelayNote{Bot: "Googlebot", Operator: "Google", N: 216, Control: "Search Console (crawl rate)",
			ControlURL: "https://developers.google.com/search/docs/crawling-indexing/reduce-crawl-rate"},
			"Crawl-delay has no effect on Googlebot: Google ignores it; its crawl rate is set in Search Console (crawl rate) " +
				"(<https://developers.google.com/search/docs/crawling-indexing/reduce-crawl-rate>). 216 of its requests came sooner " +
				"than Crawl-delay after the one before: counted as crawl_delay_unsupported, not as breaches."},
		{report.CrawlDelayNote{Bot: "Evil|Bot", Operator: "Ex", N: 1, Control: "a *console*", ControlURL: "javascript:alert(1)>"},
			"Crawl-delay has no effect on ` Evil\\|Bot `: Ex ignores it; its crawl rate is set in a \\*console\\* (javascript:alert(1)&gt;)."},
		{report.CrawlDelayNote{Bot: "YandexBot", Operator: "Yandex", N: 3}, "Crawl-delay has no effect on YandexBot: Yandex ignores it. 3 of its"},
	} {
		f := &report.Findings{Summary: &report.Summary{Input: report.Input{From: &day, To: &day}}, Limits: report.DefaultLimits,
			Generated: day, CrawlDelayIgnored: []report.CrawlDelayNote{c.note}}
		var buf bytes.Buffer
		if err := Write(&buf, f); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), c.want) {
			t.Errorf("report.md lacks %q:\n%s", c.want, buf.String())
		}
	}
}
