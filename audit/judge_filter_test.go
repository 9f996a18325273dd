package audit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// TestBotHandoff: a bot put is taken once; what is past the bound is not
// kept; trim forgets everything once three quarters of the bound are held.
func TestBotHandoff(t *testing.T) {
	var h botHandoff
	b := bots.Bot{Name: "ExampleBot", IsBot: true}
	h.put("ExampleBot/1.0", b)
	h.put("ExampleBot/1.0", b) // a second filter identified it too
	if got, ok := h.take("ExampleBot/1.0"); !ok || got != b {
		t.Fatalf("take = %+v, %t; want %+v", got, ok, b)
	}
	if _, ok := h.take("ExampleBot/1.0"); ok {
		t.Fatal("taken twice")
	}
	if h.bytes != 0 || len(h.m) != 0 {
		t.Fatalf("%d bytes, %d entries left", h.bytes, len(h.m))
	}
	ua := strings.Repeat("x", 1000)
	n := 0
	for i := 0; h.bytes+handoffCost(ua, b) <= maxHandoffBytes; i++ {
		h.put(fmt.Sprintf("%d%s", i, ua), b)
		n++
	}
	h.put("past the bound"+ua, b)
	if _, ok := h.take("past the bound" + ua); ok {
		t.Error("a bot past the bound was kept")
	}
	if len(h.m) != n || h.bytes > maxHandoffBytes {
		t.Errorf("%d entries, %d bytes; want %d entries within %d bytes", len(h.m), h.bytes, n, maxHandoffBytes)
	}
	h.trim()
	if len(h.m) != 0 || h.bytes != 0 {
		t.Errorf("after trim: %d entries, %d bytes", len(h.m), h.bytes)
	}
	h.put("ExampleBot/2.0", b)
	h.trim() // under the bound: kept
	if _, ok := h.take("ExampleBot/2.0"); !ok {
		t.Error("trim under the bound forgot an entry")
	}
}

// TestHumanFilterRecent: the filter answers as the Identifier does
// whatever the order of the User-Agents: in runs (it compares the one of
// the row before), interleaved, or longer than it remembers
// (maxFilterKey).
func TestHumanFilterRecent(t *testing.T) {
	ident := bots.NewIdentifier()
	uas := []string{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15",
		"curl/8.5.0",
		"Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
		"",
		"Mozilla/5.0 (compatible; GPTBot/1.0)" + strings.Repeat(" x", maxFilterKey),
	}
	orders := map[string][]int{
		"runs":        {0, 0, 0, 1, 1, 2, 2, 2, 0, 0, 3, 3},
		"interleaved": {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0},
		"two by two":  {0, 1, 0, 1, 2, 3, 2, 3, 0, 7, 0, 7, 4, 5, 4, 5, 6, 1, 6, 1},
	}
	for name, order := range orders {
		fs := &humanFilters{ident: ident, fromUS: -1 << 63, toUS: 1<<63 - 1}
		keep := fs.newFilter()
		for step, i := range order {
			r := logfmt.Row{UserAgent: []byte(uas[i]), Host: []byte("example.com"), Target: []byte("/")}
			if got, want := keep(&r), ident.Identify(uas[i]).IsBot; got != want {
				t.Fatalf("%s, step %d: keep(%.40q) = %t, want %t", name, step, uas[i], got, want)
			}
		}
	}
}
