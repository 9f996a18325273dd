package rdns

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// TestResolveCNAMELoopNeverRefutes: 200 addresses whose reverse names are
// all CNAME loops (and 50 more whose chains are too long) come out as
// failures, asked again later, and not one is a refutation.
func TestResolveCNAMELoopNeverRefutes(t *testing.T) {
	var zone strings.Builder
	var addrs []netip.Addr
	for i := range 250 {
		addr := netip.AddrFrom4([4]byte{203, 0, byte(113 + i/200), byte(i % 200)})
		addrs = append(addrs, addr)
		rev, _ := dns.ReverseAddr(addr.String())
		if i < 200 {
			fmt.Fprintf(&zone, "%s CNAME loop-%d.example.\nloop-%d.example. CNAME %s\n", rev, i, i, rev)
			continue
		}
		fmt.Fprintf(&zone, "%s CNAME l0-%d.example.\n", rev, i)
		for k := range 12 {
			fmt.Fprintf(&zone, "l%d-%d.example. CNAME l%d-%d.example.\n", k, i, k+1, i)
		}
		fmt.Fprintf(&zone, "l12-%d.example. PTR crawl.googlebot.com.\n", i)
	}
	srv := newTestServer(t, zone.String(), nil, 0)
	cache, _ := LoadCache("")
	got := Resolve(context.Background(), srv.resolver(clientTimeout, 8), cache, addrs, true, nil)
	if len(got) != len(addrs) {
		t.Fatalf("%d answers for %d addresses", len(got), len(addrs))
	}
	for i, addr := range addrs {
		a := got[addr]
		want := ErrCNAMELoop
		if i >= 200 {
			want = ErrCNAMEChain
		}
		if a.Err != want || a.Usable() {
			t.Errorf("%v: Err %q (usable %v), want %q, not usable", addr, a.Err, a.Usable(), want)
		}
		if o, _ := a.Check(googleDomains); o != Failed {
			t.Errorf("%v: Check = %v, want failed", addr, o)
		}
	}
}

// TestResolveBudget: when the run's DNS time budget runs out, every lookup
// not finished is a failure saying so, never a refutation, and Resolve
// returns about when the budget ends, not when the last query would have.
func TestResolveBudget(t *testing.T) {
	srv := newTestServer(t, zone, map[string]string{"*": "timeout"}, 0)
	r := srv.resolver(time.Second, 2)
	r.Budget = 300 * time.Millisecond
	var addrs []netip.Addr
	for i := range 20 {
		addrs = append(addrs, netip.AddrFrom4([4]byte{66, 249, 66, byte(100 + i)}))
	}
	cache, _ := LoadCache("")
	start := time.Now()
	got := Resolve(context.Background(), r, cache, addrs, true, nil)
	if d := time.Since(start); d > 900*time.Millisecond {
		t.Errorf("Resolve took %v with a budget of 300ms", d)
	}
	if len(got) != len(addrs) {
		t.Fatalf("%d answers for %d addresses", len(got), len(addrs))
	}
	for _, addr := range addrs {
		a := got[addr]
		if a.Err != ErrBudget {
			t.Errorf("%v: Err %q, want %q", addr, a.Err, ErrBudget)
		}
		if o, _ := a.Check(googleDomains); o != Failed {
			t.Errorf("%v: Check = %v, want failed", addr, o)
		}
	}
	if n := srv.queries.Load(); n > 4 {
		t.Errorf("%d queries: the budget should stop the lookups after the first 2 (one round)", n)
	}

	// A caller's cancellation is not the budget: nothing is reported.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	r.Budget = time.Minute
	got = Resolve(ctx, r, nil, addrs, true, nil)
	if len(got) != 0 {
		t.Errorf("canceled: %d answers, want none: %+v", len(got), got)
	}
}
