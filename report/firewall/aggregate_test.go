package firewall

import (
	"math/rand/v2"
	"net/netip"
	"slices"
	"strings"
	"testing"
)

func entriesOf(addrs ...string) []Entry {
	es := make([]Entry, len(addrs))
	for i, a := range addrs {
		es[i] = Entry{Addr: netip.MustParseAddr(a)}
		es[i].Counts[Disallowed] = 1
	}
	return es
}

func blockStrings(l *List) []string {
	var s []string
	for _, b := range l.Blocks {
		s = append(s, b.CIDR())
	}
	return s
}

func TestBuild(t *testing.T) {
	addrs := func(s ...string) []netip.Addr {
		var a []netip.Addr
		for _, x := range s {
			a = append(a, netip.MustParseAddr(x))
		}
		return a
	}
	for _, tc := range []struct {
		name    string
		entries []Entry
		opt     Options
		want    []string
		stats   Stats
	}{
		{"single addresses stay /32 and /128", entriesOf("192.0.2.1", "2001:db8::1"), Options{},
			[]string{"192.0.2.1/32", "2001:db8::1/128"}, Stats{Listed: 2}},
		{"adjacent addresses merge exactly", entriesOf("192.0.2.0", "192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"), Options{},
			[]string{"192.0.2.0/30", "192.0.2.4/32"}, Stats{Listed: 5}},
		{"adjacent but not aligned do not merge", entriesOf("192.0.2.1", "192.0.2.2"), Options{},
			[]string{"192.0.2.1/32", "192.0.2.2/32"}, Stats{Listed: 2}},
		{"mapped address is its IPv4 address and merges with it", entriesOf("::ffff:192.0.2.1", "192.0.2.1"), Options{},
			[]string{"192.0.2.1/32"}, Stats{Listed: 1, Duplicates: 1}},
		{"never loopback, unspecified, multicast, broadcast, zoned", entriesOf("127.0.0.1", "::1", "0.0.0.0", "::", "224.0.0.1", "ff02::1", "255.255.255.255", "::ffff:127.0.0.1", "fe80::1%eth0", "192.0.2.9"), Options{},
			[]string{"192.0.2.9/32"}, Stats{Listed: 1, NotBlockable: 8, Invalid: 1}},
		{"allow list drops addresses and is never covered", entriesOf("192.0.2.1", "192.0.2.200", "198.51.100.7"),
			Options{Allow: []netip.Prefix{netip.MustParsePrefix("192.0.2.128/25"), netip.MustParsePrefix("::ffff:198.51.100.7/128")}, Widest: Widest{V4: 16}},
			[]string{"192.0.2.0/25"}, Stats{Listed: 1, Allowed: 2}},
		{"widening stops at a seen address that does not qualify", entriesOf("192.0.2.1", "192.0.2.77"),
			Options{Widest: Widest{V4: 24}, Seen: addrs("192.0.2.1", "192.0.2.77", "192.0.2.64")},
			[]string{"192.0.2.0/26", "192.0.2.72/29"}, Stats{Listed: 2}},
		{"widening to /24 when nothing else was seen", entriesOf("192.0.2.1", "192.0.2.77"),
			Options{Widest: Widest{V4: 24}, Seen: addrs("198.51.100.1")},
			[]string{"192.0.2.0/24"}, Stats{Listed: 2}},
		{"widening never covers a not blockable range", entriesOf("126.255.255.254"),
			Options{Widest: Widest{V4: 8}},
			[]string{"126.0.0.0/8"}, Stats{Listed: 1}},
		{"widening never covers loopback", entriesOf("127.255.255.254"[:0] + "128.0.0.1"),
			Options{Widest: Widest{V4: 8}},
			[]string{"128.0.0.0/8"}, Stats{Listed: 1}},
		// An Amazonbot range (52.0.100.0/24 here) the logs showed no request
		// from: a /16 over the two qualifying addresses would shut it out.
		{"widening never covers a published range of a crawler not listed", entriesOf("52.0.0.1", "52.0.200.1"),
			Options{Widest: Widest{V4: 16}, Protected: []netip.Prefix{netip.MustParsePrefix("52.0.100.0/24")}},
			[]string{"52.0.0.0/18", "52.0.128.0/17"}, Stats{Listed: 2}},
		{"without the published range the same addresses make one /16", entriesOf("52.0.0.1", "52.0.200.1"),
			Options{Widest: Widest{V4: 16}},
			[]string{"52.0.0.0/16"}, Stats{Listed: 2}},
		{"an address inside a published range is still listed alone", entriesOf("52.0.100.5"),
			Options{Widest: Widest{V4: 16}, Protected: []netip.Prefix{netip.MustParsePrefix("52.0.100.0/24")}},
			[]string{"52.0.100.5/32"}, Stats{Listed: 1}},
		{"exact merges inside a published range", entriesOf("52.0.100.4", "52.0.100.5"),
			Options{Widest: Widest{V4: 16}, Protected: []netip.Prefix{netip.MustParsePrefix("52.0.100.0/24")}},
			[]string{"52.0.100.4/31"}, Stats{Listed: 2}},
		{"IPv6 widening stops at a published range", entriesOf("2600:1f00::1"),
			Options{Widest: Widest{V6: 32}, Protected: []netip.Prefix{netip.MustParsePrefix("2600:1f00:8000::/48")}},
			[]string{"2600:1f00::/33"}, Stats{Listed: 1}},
		{"a mapped published range protects its IPv4 addresses", entriesOf("52.0.0.1"),
			Options{Widest: Widest{V4: 16}, Protected: []netip.Prefix{netip.MustParsePrefix("::ffff:52.0.128.0/120")}},
			[]string{"52.0.0.0/17"}, Stats{Listed: 1}},
		{"IPv6 widened to /64, IPv4 exact", entriesOf("2001:db8::1", "2001:db8::2:1", "192.0.2.1", "192.0.2.3"),
			Options{Widest: Widest{V6: 64}},
			[]string{"192.0.2.1/32", "192.0.2.3/32", "2001:db8::/64"}, Stats{Listed: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, st := Build(tc.entries, tc.opt, Meta{})
			if got := blockStrings(l); !slices.Equal(got, tc.want) {
				t.Errorf("blocks = %v, want %v", got, tc.want)
			}
			if st != tc.stats {
				t.Errorf("stats = %+v, want %+v", st, tc.stats)
			}
		})
	}
}

// TestBuildProperty: for random sets of qualifying and seen addresses in a
// small space, every qualifying address is covered, no seen non-qualifying
// or allowed address is, every prefix is within the widest allowed, and
// the prefixes are as few as the brute-force minimum.
func TestBuildProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 600; iter++ {
		// A /22 (1024 addresses): sparse or dense draws.
		base := netip.MustParseAddr("10.1.4.0").As4()
		at := func(i int) netip.Addr {
			b := base
			b[2] += byte(i >> 8)
			b[3] = byte(i)
			return netip.AddrFrom4(b)
		}
		density := []float64{0.005, 0.05, 0.3, 0.9}[iter%4]
		var entries []Entry
		var seen []netip.Addr
		status := make([]byte, 1024) // 0 unseen, 1 qualifying, 2 seen not qualifying, 3 allowed
		for i := 0; i < 1024; i++ {
			switch r := rng.Float64(); {
			case r < density:
				entries = append(entries, entriesOf(at(i).String())...)
				seen = append(seen, at(i))
				status[i] = 1
			case r < density*1.5:
				seen = append(seen, at(i))
				status[i] = 2
			}
		}
		var allow []netip.Prefix
		if iter%3 == 0 {
			i := rng.IntN(1024)
			allow = append(allow, netip.PrefixFrom(at(i), 32))
			status[i] = 3
		}
		// A published range of a crawler not listed (a /28): no widened
		// prefix may overlap it, qualifying addresses inside or not.
		prot := make([]bool, 1024)
		var protected []netip.Prefix
		if iter%7 == 0 {
			lo := rng.IntN(64) * 16
			protected = append(protected, netip.PrefixFrom(at(lo), 28))
			for i := lo; i < lo+16; i++ {
				prot[i] = true
			}
		}
		rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		widest := []int{0, 30, 26, 24, 22}[iter%5]
		l, _ := Build(entries, Options{Widest: Widest{V4: widest}, Seen: seen, Allow: allow, Protected: protected}, Meta{})
		covered := make([]int, 1024)
		for _, b := range l.Blocks {
			if b.Prefix.Bits() < 22 {
				t.Fatalf("iter %d: prefix %v wider than the test space", iter, b.Prefix)
			}
			exact, overProt := true, false
			for i := 0; i < 1024; i++ {
				if b.Prefix.Contains(at(i)) {
					covered[i]++
					exact = exact && status[i] == 1
					overProt = overProt || prot[i]
				}
			}
			if !exact && (widest == 0 || b.Prefix.Bits() < widest) {
				t.Fatalf("iter %d (widest %d): %v covers addresses that do not qualify and is wider than allowed", iter, widest, b.Prefix)
			}
			if !exact && overProt {
				t.Fatalf("iter %d (widest %d): widened %v overlaps the published range %v", iter, widest, b.Prefix, protected)
			}
			for _, e := range b.Entries {
				if !b.Prefix.Contains(e.Addr) {
					t.Fatalf("iter %d: entry %v listed under %v", iter, e.Addr, b.Prefix)
				}
			}
		}
		for i, s := range status {
			switch {
			case s == 1 && covered[i] != 1:
				t.Fatalf("iter %d: qualifying %v covered %d times", iter, at(i), covered[i])
			case (s == 2 || s == 3) && covered[i] > 0:
				t.Fatalf("iter %d: %v (status %d) covered", iter, at(i), s)
			}
		}
		if want := minCover(status, prot, widest); len(l.Blocks) != want {
			t.Fatalf("iter %d (widest %d): %d prefixes, the minimum is %d", iter, widest, len(l.Blocks), want)
		}
	}
}

// minCover counts by brute force the fewest prefixes of a /22 that cover
// every qualifying address (status 1) and no seen or allowed one (2, 3),
// each either all qualifying or no wider than widest and overlapping no
// protected address: recursively, a prefix that may be taken whole costs 1;
// else its two halves.
func minCover(status []byte, prot []bool, widest int) int {
	var rec func(lo, n, bits int) int
	rec = func(lo, n, bits int) int {
		any, all, bad := false, true, false
		for i := lo; i < lo+n; i++ {
			any = any || status[i] == 1
			all = all && status[i] == 1
			bad = bad || status[i] == 2 || status[i] == 3 || prot[i]
		}
		switch {
		case !any:
			return 0
		case all || (widest != 0 && bits >= widest && !bad):
			return 1
		}
		return rec(lo, n/2, bits+1) + rec(lo+n/2, n/2, bits+1)
	}
	return rec(0, 1024, 22)
}

// TestCheckSafe: --block-aggregate wider than /16 or /48 is refused unless
// forced, with a message that says how much one entry would block.
func TestCheckSafe(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" when allowed
	}{
		{"", ""},
		{"/24,/64", ""},
		{"/16,/48", ""},
		{"/32,/128", ""},
		{"/15", "/15 (up to 131,072 IPv4 addresses in one entry) is wider than /16"},
		{"/8", "/8 (up to 16,777,216 IPv4 addresses in one entry) is wider than /16"},
		{"/24,/47", "/47 (2 times a site's /48) is wider than /48"},
		{"/8,/32", "/8 (up to 16,777,216 IPv4 addresses in one entry) is wider than /16; /32 (65,536 times a site's /48) is wider than /48"},
	} {
		w, err := ParseWidest(tc.in)
		if err != nil {
			t.Fatalf("ParseWidest(%q): %v", tc.in, err)
		}
		err = w.CheckSafe()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckSafe(%q) = %v, want nil", tc.in, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--block-aggregate-force")):
			t.Errorf("CheckSafe(%q) = %v, want %q and the way to force it", tc.in, err, tc.want)
		}
	}
}

func TestParseWidest(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Widest
		err  string
	}{
		{"", Widest{}, ""},
		{"exact", Widest{}, ""},
		{"/24,/64", Widest{24, 64}, ""},
		{"24,64", Widest{24, 64}, ""},
		{"/24", Widest{V4: 24}, ""},
		{"/48", Widest{V6: 48}, ""},
		{"/32,/128", Widest{32, 128}, ""},
		{"/4,/64", Widest{}, "between /8 and /32"},
		{"/24,/8", Widest{}, "between /16 and /128"},
		{"/24,/64,/8", Widest{}, "at most two"},
		{"x", Widest{}, "not a prefix length"},
	} {
		got, err := ParseWidest(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseWidest(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseWidest(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Googlebot spoofed", "Googlebot spoofed"},
		{"evil\"bot;\n} flush ruleset #", "evil_bot;__ flush ruleset _"},
		{"=cmd|' /C calc'!A0", "_cmd__ /C calc__A0"},
		{"-x +y", "x +y"},
		{"  a   b  ", "a b"},
		{"a\\b$c{d}`e`\x00\u2028", "a_b_c_d__e___"},
		{"0123456789", "0123456789"},
	} {
		if got := Sanitize(tc.in, 0); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Sanitize(strings.Repeat("a", 200), 10); got != "aaaaaaa..." {
		t.Errorf("cut: %q", got)
	}
}
