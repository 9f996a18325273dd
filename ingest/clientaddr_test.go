package ingest

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
)

// TestClientAddr: what the client_ip column holds for a client address as
// a parser found it, and why an invalid one is counted.
func TestClientAddr(t *testing.T) {
	for _, tc := range []struct {
		in, want, why string
	}{
		// The shapes logs give a client: what is not one plain address is
		// kept with the reason, never blocked; brackets are RFC 3986's.
		{"999.1.1.1", "", ClientNotAddress},
		{"1.2.3.4:8080", "", ClientWithPort},
		{"fe80::1%eth0", "", ClientWithZone},
		{"[2001:db8::3]:443", "2001:db8::3", ""},
		{"[2001:db8::3]", "2001:db8::3", ""},
		{"::ffff:1.2.3.4", "1.2.3.4", ""},   // IPv4-mapped: stored unmapped
		{"010.1.1.1", "", ClientNotAddress}, // leading zero: octal to inet_aton, decimal to others
		// Plain addresses, stored as logged.
		{"192.0.2.1", "192.0.2.1", ""},
		{"0.0.0.0", "0.0.0.0", ""},
		{"255.255.255.255", "255.255.255.255", ""},
		{"2001:db8::1", "2001:db8::1", ""},
		{"::1", "::1", ""},
		// RFC 5952 §4: IPv6 is stored in its canonical text form.
		{"2001:DB8:0:0:0:0:0:1", "2001:db8::1", ""},
		{"2001:0db8::0001", "2001:db8::1", ""},
		{"::ffff:c000:0201", "192.0.2.1", ""}, // IPv4-mapped in hex
		{"[::ffff:192.0.2.1]:80", "192.0.2.1", ""},
		// RFC 4007 §11: a zone names an interface of the logging host.
		{"fe80::1%25eth0", "", ClientWithZone},
		{"[fe80::1%eth0]:443", "", ClientWithZone},
		{"fe80::1%", "", ClientNotAddress},
		// RFC 3986 §3.2.2: an IP-literal in brackets holds IPv6, with an
		// optional port after it.
		{"[1.2.3.4]", "", ClientNotAddress},
		{"[1.2.3.4]:80", "", ClientNotAddress},
		{"[2001:db8::3]:", "", ClientNotAddress},
		{"[2001:db8::3]:65536", "", ClientNotAddress},
		{"[2001:db8::3]x", "", ClientNotAddress},
		{"[2001:db8::3", "", ClientNotAddress},
		{"[]", "", ClientNotAddress},
		// An IPv6 address without brackets cannot carry a port: these are
		// eight groups, an address.
		{"2001:db8::1:443", "2001:db8::1:443", ""},
		// Malformed IPv4.
		{"1.2.3", "", ClientNotAddress},
		{"1.2.3.4.5", "", ClientNotAddress},
		{"1.2.3.", "", ClientNotAddress},
		{".1.2.3", "", ClientNotAddress},
		{"1..2.3", "", ClientNotAddress},
		{"1.2.3.256", "", ClientNotAddress},
		{"1.2.3.00", "", ClientNotAddress},
		{"01.2.3.4", "", ClientNotAddress},
		{"1.2.3.4 ", "", ClientNotAddress},
		{"1.2.3.4:99999", "", ClientNotAddress},
		{"0x7f.0.0.1", "", ClientNotAddress},
		{"2130706433", "", ClientNotAddress}, // 127.0.0.1 as one number
		// Names: Apache's %h with HostnameLookups on; proxies' "unknown".
		{"crawl-66-249-66-1.googlebot.com", "", ClientHostname},
		{"a.b-c.d", "", ClientHostname},
		{"host.123", "", ClientNotAddress},
		{"localhost", "", ClientHostname},
		{"unknown", "", ClientHostname},
		{"example.com:80", "", ClientNotAddress},
		{"-", "", ClientNotAddress},
		{"", "", ClientNotAddress},
		{"\x1b[31m", "", ClientNotAddress},
	} {
		var scratch []byte
		got, why := clientAddr([]byte(tc.in), &scratch)
		if string(got) != tc.want || why != tc.why || (tc.why != "") != (got == nil) {
			t.Errorf("clientAddr(%q) = %q, %q; want %q, %q", tc.in, got, why, tc.want, tc.why)
		}
	}
	var scratch []byte
	if got, why := clientAddr(nil, &scratch); got != nil || why != ClientMissing {
		t.Errorf("clientAddr(nil) = %q, %q; want nil, %q", got, why, ClientMissing)
	}
}

// TestClientChecker: the worker's checker, which remembers the last
// address, answers as clientAddr does, for repeated and alternating values
// in lines that change under it.
func TestClientChecker(t *testing.T) {
	values := []string{"2001:db8::3", "2001:db8::3", "[2001:db8::3]:443", "[2001:db8::3]:443", "::ffff:1.2.3.4", "::ffff:1.2.3.4",
		"192.0.2.1", "::ffff:1.2.3.4", "2001:DB8::1", "2001:DB8::1", "fe80::1%eth0", "fe80::1%eth0", "", "", "[::ffff:5.6.7.8]", "::ffff:1.2.3.4"}
	var c clientChecker
	for round := range 2 {
		for i, v := range values {
			line := []byte("xx" + v + "yy") // a fresh line each time
			in := line[2 : 2+len(v)]
			var scratch []byte
			want, wantWhy := clientAddr(in, &scratch)
			got, why := c.check(in)
			if string(got) != string(want) || why != wantWhy || (got == nil) != (want == nil) {
				t.Errorf("round %d, value %d %q: check = %q, %q; clientAddr = %q, %q", round, i, v, got, why, want, wantWhy)
			}
			if within(c.scratch, got) || within(line, got) || got == nil || inSeen(&c, got) {
				continue
			}
			t.Errorf("value %q: result %q is neither in the line nor in the checker's scratch or memory", v, got)
		}
	}
	if got, why := c.check(nil); got != nil || why != ClientMissing {
		t.Errorf("check(nil) = %q, %q", got, why)
	}
}

func TestClientSampleText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"999.1.1.1", "999.1.1.1"},
		{"\x1b[31mred\x07", `\x1B[31mred\x07`},
		{"a\xffb", `a\xFFb`},
		{"\u009b2J", `\xC2\x9B2J`}, // C1 CSI
		{"é.example", "é.example"},
		{strings.Repeat("a", 100), strings.Repeat("a", 64)},
	} {
		if got := clientSampleText([]byte(tc.in)); got != tc.want {
			t.Errorf("clientSampleText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestInvalidClientsCounted: a line with an invalid client address is a
// parsed line, its client_ip "", counted per reason in total and per file,
// with samples.
func TestInvalidClientsCounted(t *testing.T) {
	clients := []struct{ in, stored, why string }{
		{"192.0.2.1", "192.0.2.1", ""},
		{"999.1.1.1", "", ClientNotAddress},
		{"1.2.3.4:8080", "", ClientWithPort},
		{"fe80::1%eth0", "", ClientWithZone},
		{"[2001:db8::3]:443", "2001:db8::3", ""},
		{"::ffff:1.2.3.4", "1.2.3.4", ""},
		{"crawler.example.com", "", ClientHostname},
		{"\x1b]0;pwned\x07" + strings.Repeat("x", 100), "", ClientNotAddress},
		{"010.1.1.1", "", ClientNotAddress},
	}
	var b strings.Builder
	for i, c := range clients {
		fmt.Fprintf(&b, "2026-10-01T00:00:%02dZ\t%s\tGET\t/p/%d\t200\t1\tcurl/8.0\n", i, c.in, i)
	}
	rows, _, acc, err := collect(t, []string{"-"}, Options{Stdin: strings.NewReader(b.String()), Format: "tsv", SamplesPerReason: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, acc)
	if acc.Parsed != int64(len(clients)) || len(rows) != len(clients) {
		t.Fatalf("parsed %d, %d rows: every line is a request", acc.Parsed, len(rows))
	}
	want := map[string]int64{}
	for i, c := range clients {
		if rows[i].IP != c.stored {
			t.Errorf("line %d: client %q stored as %q, want %q", i+1, c.in, rows[i].IP, c.stored)
		}
		if c.why != "" {
			want[c.why]++
		}
	}
	if fmt.Sprint(acc.InvalidClients) != fmt.Sprint(want) || fmt.Sprint(acc.PerFile[0].InvalidClients) != fmt.Sprint(want) {
		t.Errorf("invalid clients %v, per file %v; want %v", acc.InvalidClients, acc.PerFile[0].InvalidClients, want)
	}
	wantSamples := []Sample{
		{ClientWithPort, StdinName, 3, "1.2.3.4:8080"},
		{ClientWithZone, StdinName, 4, "fe80::1%eth0"},
		{ClientHostname, StdinName, 7, "crawler.example.com"},
		{ClientNotAddress, StdinName, 2, "999.1.1.1"},
		{ClientNotAddress, StdinName, 8, `\x1B]0;pwned\x07` + strings.Repeat("x", 54)},
	}
	if fmt.Sprint(acc.InvalidClientSamples) != fmt.Sprint(wantSamples) {
		t.Errorf("samples\n%v\nwant\n%v", acc.InvalidClientSamples, wantSamples)
	}
}

// TestClientAddrAllocs: validating a dotted IPv4 address, or an IPv6 one
// with its scratch grown, allocates nothing.
func TestClientAddrAllocs(t *testing.T) {
	scratch := make([]byte, 0, 64)
	for _, v := range []string{"203.0.113.77", "2001:db8::1", "::ffff:1.2.3.4", "[2001:db8::3]:443"} {
		b := []byte(v)
		if n := testing.AllocsPerRun(100, func() { clientAddr(b, &scratch) }); n != 0 {
			t.Errorf("clientAddr(%q): %v allocations", v, n)
		}
	}
}

// checkerAgrees runs the addresses through one clientChecker, in order,
// and fails unless each result is clientAddr's, also when it is read again
// just before the next call (the result is valid until then).
func checkerAgrees(t *testing.T, c *clientChecker, addrs ...[]byte) {
	t.Helper()
	for i, v := range addrs {
		var scratch []byte
		want, wantWhy := clientAddr(v, &scratch)
		got, why := c.check(v)
		if why != wantWhy || string(got) != string(want) || (got == nil) != (want == nil) {
			t.Fatalf("address %d, %q: checker says %q, %q; clientAddr %q, %q", i, v, got, why, want, wantWhy)
		}
	}
}

// TestClientCheckerRemembers: the checker's memory of the last address and
// of the addresses that are no dotted IPv4 address gives clientAddr's
// results: in runs, interleaved, evicted by others, too long to remember,
// and for the forms clientAddr rewrites (RFC 5952 §4 canonical text,
// IPv4-mapped, brackets and port of RFC 3986 §3.2.2) or rejects.
func TestClientCheckerRemembers(t *testing.T) {
	forms := []string{
		"2001:db8::1", "2001:DB8:0:0:0:0:0:1", "::ffff:192.0.2.1", "[2001:db8::3]:443", "[2001:db8::3]",
		"fe80::1%eth0", "host.example", "1.2.3.4:8080", "999.1.1.1", "203.0.113.9", "", "::1",
	}
	var seq [][]byte
	for round := range 3 {
		for i, f := range forms {
			seq = append(seq, []byte(f), []byte(f)) // a run
			seq = append(seq, []byte(forms[(i+round+1)%len(forms)]))
		}
	}
	seq = append(seq, nil, []byte("2001:db8::1"), nil)
	var c clientChecker
	checkerAgrees(t, &c, seq...)

	// More addresses than slots: they evict one another.
	var many [][]byte
	for i := range 4 * seenSlots {
		many = append(many, fmt.Appendf(nil, "2001:db8:%x::%X", i>>16, i&0xffff))
	}
	checkerAgrees(t, &c, many...)
	checkerAgrees(t, &c, many[:200]...)
	// Too long to remember (a zone and a port make no address, but the
	// checker must still say so).
	long := []byte("[fe80::1%" + strings.Repeat("e", 60) + "]:443")
	checkerAgrees(t, &c, long, many[0], long)
	checkerAgrees(t, &c, seq...)
}

// inSeen reports whether v lies in one of the results c remembers.
func inSeen(c *clientChecker, v []byte) bool {
	if c.seen == nil {
		return false
	}
	for i := range c.seen {
		if within(c.seen[i].out[:], v) {
			return true
		}
	}
	return false
}

func BenchmarkClientAddr(b *testing.B) {
	for _, v := range []string{"203.0.113.77", "66.249.66.1", "2001:db8:85a3::8a2e:370:7334", "1.2.3.4:8080"} {
		b.Run(v, func(b *testing.B) {
			in := []byte(v)
			scratch := make([]byte, 0, 64)
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				clientAddr(in, &scratch)
			}
		})
	}
	// The worker's checker on a run of one IPv6 client.
	b.Run("checker/repeated IPv6", func(b *testing.B) {
		in := []byte("2001:db8:85a3::8a2e:370:7334")
		var c clientChecker
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			c.check(in)
		}
	})
}

// FuzzClientAddr: clientAddr never panics; the hand-written IPv4 check
// agrees with netip; what it keeps is a valid address without a zone, in
// canonical form, unmapped.
func FuzzClientAddr(f *testing.F) {
	for _, s := range []string{"192.0.2.1", "999.1.1.1", "010.1.1.1", "1.2.3.4:8080", "fe80::1%eth0", "[2001:db8::3]:443",
		"::ffff:1.2.3.4", "[::ffff:1.2.3.4]", "host.example", "2001:DB8::1", "", "[", "[]:", "1.2.3.4%x", "::%25"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		a, err := netip.ParseAddr(string(v))
		if got := isDottedIPv4(v); got != (err == nil && a.Is4()) {
			t.Errorf("isDottedIPv4(%q) = %v, netip: %v %v", v, got, a, err)
		}
		// The worker's checker, remembering v between other addresses,
		// says the same.
		var c clientChecker
		checkerAgrees(t, &c, v, []byte("2001:db8::1"), v, v, []byte("203.0.113.9"), v)
		var scratch []byte
		out, why := clientAddr(v, &scratch)
		if (why == "") == (out == nil) {
			t.Fatalf("clientAddr(%q) = %q, %q", v, out, why)
		}
		if why != "" {
			return
		}
		b, err := netip.ParseAddr(string(out))
		if err != nil || b.Zone() != "" || b.Is4In6() || b.String() != string(out) {
			t.Errorf("clientAddr(%q) = %q: not a canonical address without zone (%v)", v, out, err)
		}
	})
}
