package firewall

import (
	"bytes"
	"encoding/csv"
	"net/netip"
	"slices"
	"strings"
	"testing"
)

func TestCloudflareGolden(t *testing.T) {
	checkGolden(t, "blocklist.cloudflare.csv", writeFile(t, "cloudflare", "blocklist.cloudflare.csv", fixtureList(t)))
}

// cloudflareRead reads blocklist.cloudflare.csv for l with encoding/csv:
// the value and the description of each row.
func cloudflareRead(t *testing.T, l *List) (values, descs []string) {
	t.Helper()
	out := writeFile(t, "cloudflare", "blocklist.cloudflare.csv", l)
	r := csv.NewReader(bytes.NewReader(out))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("encoding/csv: %v\n%s", err, out)
	}
	if n := bytes.Count(out, []byte("\n")); n != len(recs) {
		t.Errorf("%d lines for %d records: a cell broke a line\n%s", n, len(recs), out)
	}
	if bytes.ContainsRune(out, '"') {
		t.Errorf("a quoted cell, which a naive CSV reader would misread:\n%s", out)
	}
	for _, rec := range recs {
		if len(rec) != 1 && len(rec) != 2 {
			t.Fatalf("record %q: want ip or ip,description", rec)
		}
		values = append(values, rec[0])
		desc := ""
		if len(rec) == 2 {
			desc = rec[1]
		}
		descs = append(descs, desc)
	}
	return values, descs
}

// cloudflareCheckValue checks that v is an item Cloudflare takes: an IPv4
// address, an IPv4 CIDR /8 to /32, an IPv6 CIDR /12 to /64, masked.
func cloudflareCheckValue(t *testing.T, v string) netip.Prefix {
	t.Helper()
	if a, err := netip.ParseAddr(v); err == nil {
		if !a.Is4() {
			t.Errorf("%q: an address alone must be IPv4", v)
		}
		return netip.PrefixFrom(a, 32)
	}
	p, err := netip.ParsePrefix(v)
	switch {
	case err != nil:
		t.Errorf("%q: not an address or a CIDR: %v", v, err)
	case p != p.Masked():
		t.Errorf("%q: host bits set", v)
	case p.Addr().Is4() && (p.Bits() < 8 || p.Bits() > 32):
		t.Errorf("%q: IPv4 prefix length outside /8../32", v)
	case p.Addr().Is6() && (p.Bits() < 12 || p.Bits() > 64):
		t.Errorf("%q: IPv6 prefix length outside /12../64", v)
	}
	return p
}

// TestCloudflareReadBack reads the file back with encoding/csv: each row a
// valid item, each block of the list covered by exactly one row, IPv4 rows
// the blocks as they are, descriptions exact, sanitized and formula-safe.
func TestCloudflareReadBack(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    *List
	}{
		{"fixture", fixtureList(t)},
		{"hostile bot names", hostileList(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			values, descs := cloudflareRead(t, tc.l)
			items := CloudflareItems(tc.l)
			if len(values) != len(items) {
				t.Fatalf("%d rows, want %d items", len(values), len(items))
			}
			var prefixes []netip.Prefix
			for i, v := range values {
				p := cloudflareCheckValue(t, v)
				prefixes = append(prefixes, p)
				if v != items[i].Value() || descs[i] != items[i].Description {
					t.Errorf("row %d = %q,%q, want %q,%q", i, v, descs[i], items[i].Value(), items[i].Description)
				}
				d := descs[i]
				if d != Sanitize(d, CloudflareMaxDescription) || strings.Contains(d, ",") || formulaStart(d) || d == "" {
					t.Errorf("row %d: description %q is not sanitized, comma-free and formula-safe", i, d)
				}
			}
			seen := map[string]bool{}
			for _, v := range values {
				if seen[v] {
					t.Errorf("row %s repeats", v)
				}
				seen[v] = true
			}
			for _, b := range tc.l.Blocks {
				n := 0
				for _, p := range prefixes {
					if p.Overlaps(b.Prefix) {
						n++
						if !p.Contains(b.Prefix.Addr()) || p.Bits() > b.Prefix.Bits() {
							t.Errorf("block %s only partly covered by %s", b.CIDR(), p)
						}
					}
				}
				if n != 1 {
					t.Errorf("block %s covered by %d rows, want 1", b.CIDR(), n)
				}
			}
			var v4 []string
			for _, b := range tc.l.Family(4) {
				v4 = append(v4, b.String())
			}
			if got := values[:len(v4)]; !slices.Equal(got, v4) {
				t.Errorf("IPv4 rows = %q, want the blocks as they are: %q", got, v4)
			}
		})
	}
}

// TestCloudflareWidening checks that IPv6 blocks longer than /64 are
// widened to their /64, those of one /64 merged into one row that says so,
// and that everything else is written as it is.
func TestCloudflareWidening(t *testing.T) {
	l, _ := Build(entriesOfCloudflare(
		"192.0.2.1", "192.0.2.2", "192.0.2.3", "198.51.100.7",
		"2001:db8:1::1", "2001:db8:1::5", "2001:db8:1:0:ffff::9", // three blocks of one /64
		"2001:db8:2::8", "2001:db8:2::9", // one /127
		"2001:db8:3::1", // alone in its /64
	), Options{}, Meta{})
	values, descs := cloudflareRead(t, l)
	want := []string{"192.0.2.1", "192.0.2.2/31", "198.51.100.7", "2001:db8:1::/64", "2001:db8:2::/64", "2001:db8:3::/64"}
	if !slices.Equal(values, want) {
		t.Fatalf("rows = %q, want %q", values, want)
	}
	wantDesc := []string{
		"disallowed 1",
		"2 addresses: disallowed 2",
		"disallowed 1",
		"widened to /64 from 2001:db8:1::1/128 2001:db8:1::5/128 2001:db8:1:0:ffff::9/128 (the rest of the /64 not seen): 3 addresses: disallowed 3",
		"widened to /64 from 2001:db8:2::8/127 (the rest of the /64 not seen): 2 addresses: disallowed 2",
		"widened to /64 from 2001:db8:3::1/128 (the rest of the /64 not seen): disallowed 1",
	}
	if !slices.Equal(descs, wantDesc) {
		t.Errorf("descriptions:\n%q\nwant\n%q", descs, wantDesc)
	}
	items := CloudflareItems(l)
	for i, it := range items {
		if widened := len(it.Widened) > 0; widened != (i >= 3) {
			t.Errorf("%s: widened = %v", it.Value(), widened)
		}
	}
	if got := len(items[3].Block.Entries); got != 3 {
		t.Errorf("%s stands for %d entries, want 3", items[3].Value(), got)
	}
	if len(l.Entries) != 10 || l.Entries[5].Addr != netip.MustParseAddr("2001:db8:1::5") {
		t.Errorf("merging the widened blocks changed the list's entries: %v", l.Entries)
	}

	// A /64 holding a client seen in the logs that does not qualify (here
	// a verified crawler's address) is not widened over it: dropped.
	l, _ = Build(entriesOfCloudflare("2001:db8:1::1", "2001:db8:3::1"), Options{Seen: []netip.Addr{netip.MustParseAddr("2001:db8:1::66")}}, Meta{})
	values, _ = cloudflareRead(t, l)
	if !slices.Equal(values, []string{"2001:db8:3::/64"}) {
		t.Errorf("with a reachable address in 2001:db8:1::/64: rows %q", values)
	}
	if items := CloudflareItems(l); len(items) != 2 || !items[0].Dropped || items[1].Dropped {
		t.Errorf("Dropped marks: %+v", items)
	}

	// A /64 that --block-aggregate made is written as it is, not widened.
	l, _ = Build(entriesOfCloudflare("2001:db8:4::1", "2001:db8:4::7"), Options{Widest: Widest{V6: 64}}, Meta{})
	items = CloudflareItems(l)
	if len(items) != 1 || items[0].Value() != "2001:db8:4::/64" || len(items[0].Widened) != 0 {
		t.Errorf("aggregated /64: items %+v", items)
	}
	if d := items[0].Description; d != "2 addresses: disallowed 2" {
		t.Errorf("aggregated /64: description %q", d)
	}
}

// TestCloudflareSplit checks that prefixes wider than Cloudflare takes are
// split into the widest it takes.
func TestCloudflareSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		bits int
		want []string
	}{
		{"10.0.0.0/8", 8, []string{"10.0.0.0/8"}},
		{"192.0.2.0/24", 8, []string{"192.0.2.0/24"}},
		{"8.0.0.0/6", 8, []string{"8.0.0.0/8", "9.0.0.0/8", "10.0.0.0/8", "11.0.0.0/8"}},
		{"128.0.0.0/1", 2, []string{"128.0.0.0/2", "192.0.0.0/2"}},
		{"2000::/11", 12, []string{"2000::/12", "2010::/12"}},
	} {
		var got []string
		for _, p := range cloudflareSplit(netip.MustParsePrefix(tc.in), tc.bits) {
			got = append(got, p.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("split(%s, /%d) = %v, want %v", tc.in, tc.bits, got, tc.want)
		}
	}

	// A block wider than /8 (never made by Build in practice) becomes its
	// /8s, each with the entries inside it.
	es := entriesOfCloudflare("8.0.0.1", "11.2.3.4")
	l := &List{Entries: es, Blocks: []Block{{Prefix: netip.MustParsePrefix("8.0.0.0/6"), Entries: es}}}
	values, _ := cloudflareRead(t, l)
	if want := []string{"8.0.0.0/8", "9.0.0.0/8", "10.0.0.0/8", "11.0.0.0/8"}; !slices.Equal(values, want) {
		t.Errorf("rows = %q, want %q", values, want)
	}
	items := CloudflareItems(l)
	if len(items[0].Block.Entries) != 1 || len(items[1].Block.Entries) != 0 || len(items[3].Block.Entries) != 1 {
		t.Errorf("entries not split with their /8s: %+v", items)
	}
}

func entriesOfCloudflare(addrs ...string) []Entry {
	es := make([]Entry, len(addrs))
	for i, a := range addrs {
		es[i] = Entry{Addr: netip.MustParseAddr(a)}
		es[i].Counts[Disallowed] = 1
	}
	return es
}
