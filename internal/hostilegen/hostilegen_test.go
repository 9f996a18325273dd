package hostilegen

import (
	"bytes"
	"net/netip"
	"strings"
	"testing"
)

// TestAddresses checks the client addresses of a log: as many distinct ones
// as asked, of the family asked, and for IPv6 a few to a /64 over several
// /32s of the documentation prefix, as the memory figures of an IPv6 block
// list need.
func TestAddresses(t *testing.T) {
	docs := netip.MustParsePrefix("3fff::/20")
	for _, tc := range []struct {
		name      string
		o         Options
		want      int // distinct addresses: at most, and at least 95% (they are drawn at random)
		wantNets  int // distinct /64s (IPv6) at least
		want32s   int // distinct /32s (IPv6) at least
		wantIPv6  bool
		wantLines int
	}{
		{name: "one IPv4", o: Options{Lines: 50}, want: 1, wantLines: 50},
		{name: "IPv4", o: Options{Lines: 20000, Addresses: 5000}, want: 5000, wantLines: 20000},
		{name: "one IPv6", o: Options{Lines: 50, IPv6: true}, want: 1, wantNets: 1, want32s: 1, wantIPv6: true, wantLines: 50},
		{name: "IPv6", o: Options{Lines: 40000, Addresses: 4000, IPv6: true}, want: 4000, wantNets: 900, want32s: 8, wantIPv6: true, wantLines: 40000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, tc.o); err != nil {
				t.Fatal(err)
			}
			addrs, nets, n32 := map[netip.Addr]bool{}, map[netip.Prefix]bool{}, map[netip.Prefix]bool{}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			for i, l := range lines {
				field, _, _ := strings.Cut(l, " ")
				a, err := netip.ParseAddr(field)
				if err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				if a.Is6() != tc.wantIPv6 || a.Is4In6() {
					t.Fatalf("line %d: address %s, want IPv6 %t", i+1, a, tc.wantIPv6)
				}
				if a.Is6() {
					if !docs.Contains(a) {
						t.Fatalf("line %d: %s is outside %s", i+1, a, docs)
					}
					nets[netip.PrefixFrom(a, 64).Masked()] = true
					n32[netip.PrefixFrom(a, 32).Masked()] = true
				}
				addrs[a] = true
			}
			if len(lines) != tc.wantLines {
				t.Errorf("%d lines, want %d", len(lines), tc.wantLines)
			}
			if len(addrs) > tc.want || len(addrs) < tc.want*95/100 {
				t.Errorf("%d distinct addresses, want %d (at least 95%% of them)", len(addrs), tc.want)
			}
			if tc.wantIPv6 {
				if len(nets) < tc.wantNets || len(nets) > max(1, tc.want/ipv6PerSubnet) {
					t.Errorf("%d distinct /64s, want %d to %d", len(nets), tc.wantNets, tc.want/ipv6PerSubnet)
				}
				if len(n32) < tc.want32s {
					t.Errorf("%d distinct /32s, want at least %d", len(n32), tc.want32s)
				}
			}
		})
	}
}

// TestDeterministic checks that the same options give the same bytes, and
// another seed other addresses.
func TestDeterministic(t *testing.T) {
	o := Options{Lines: 1000, Addresses: 300, IPv6: true, Agents: 10}
	var a, b, c bytes.Buffer
	if err := Write(&a, o); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, o); err != nil {
		t.Fatal(err)
	}
	o.Seed = 7
	if err := Write(&c, o); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same options gave different logs")
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("another seed gave the same log")
	}
}
