package audit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/bots"
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
