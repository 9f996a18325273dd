package verify

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// listOf builds a list of the given prefixes created at created.
func listOf(created time.Time, prefixes ...string) *List {
	ps := make([]netip.Prefix, len(prefixes))
	for i, p := range prefixes {
		ps[i] = netip.MustParsePrefix(p)
	}
	return NewList(created, ps)
}

// googleLike are prefixes of Google's published common-crawlers list.
var googleLike = []string{"66.249.64.0/27", "66.249.64.32/27", "66.249.64.64/27", "66.249.64.96/27",
	"66.249.65.0/27", "66.249.66.0/27", "2001:4860:4801:10::/64", "2001:4860:4801:11::/64"}

func TestVetList(t *testing.T) {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	created := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	prev := listOf(created.Add(-24*time.Hour), googleLike...)
	for _, tc := range []struct {
		name    string
		list    *List
		prev    *List
		written time.Time
		refused string // a substring of the reasons; "" accepted
		dropped string // a substring of the dropped notes
		keep    int    // the prefixes of the list used, when accepted
	}{
		{"real_looking", listOf(created, googleLike...), prev, time.Time{}, "", "", len(googleLike)},
		{"empty", listOf(created), prev, time.Time{}, "it holds no prefix", "", 0},
		{"default_route_v4", listOf(created, append(googleLike, "0.0.0.0/0")...), nil, time.Time{}, "it holds 0.0.0.0/0, the default route", "", 0},
		{"default_route_v6", listOf(created, "::/0"), nil, time.Time{}, "it holds ::/0, the default route", "", 0},
		{"too_broad", listOf(created, append(googleLike, "64.0.0.0/7")...), nil, time.Time{}, "it holds 64.0.0.0/7, more address space than any one operator holds (the broadest allowed is /8)", "", 0},
		{"too_broad_v6", listOf(created, append(googleLike, "2400::/12")...), nil, time.Time{}, "2400::/12, more address space", "", 0},
		{"spans_special", listOf(created, append(googleLike, "172.0.0.0/8")...), nil, time.Time{}, "it holds 172.0.0.0/8, which spans the private-use (172.16.0.0/12, RFC 1918)", "", 0},
		{"loopback_only", listOf(created, "127.0.0.0/8", "::1/128"), nil, time.Time{}, "2 of its 2 prefixes are special-purpose addresses that no crawler uses (127.0.0.0/8 is loopback (127.0.0.0/8, RFC 1122); ::1/128 is loopback (::1/128, RFC 4291))", "", 0},
		{"documentation_only", listOf(created, "192.0.2.0/24"), nil, time.Time{}, "192.0.2.0/24 is documentation (TEST-NET-1)", "", 0},
		{"half_special", listOf(created, "66.249.64.0/27", "10.1.0.0/16"), nil, time.Time{}, "1 of its 2 prefixes are special-purpose", "", 0},
		{"few_special_dropped", listOf(created, append(googleLike, "10.0.0.0/8", "fe80::/64")...), prev, time.Time{}, "",
			"10.0.0.0/8 is private-use (10.0.0.0/8, RFC 1918): dropped, no crawler uses it", len(googleLike)},
		{"ula_dropped", listOf(created, append(googleLike, "fd00:1::/64")...), nil, time.Time{}, "", "fd00:1::/64 is unique local (fc00::/7, RFC 4193)", len(googleLike)},
		{"year_1970", listOf(time.Unix(0, 0), googleLike...), nil, time.Time{}, "its creation time 1970-01-01T00:00:00Z is before 2000", "", 0},
		{"year_2099", listOf(time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC), googleLike...), nil, time.Time{}, "its creation time 2099-01-01T00:00:00Z is in the future (it is now 2026-11-01T00:00:00Z)", "", 0},
		{"within_skew", listOf(now.Add(24*time.Hour), googleLike...), nil, time.Time{}, "", "", len(googleLike)},
		{"after_written", listOf(created, googleLike...), nil, created.Add(-72 * time.Hour), "is after the file was written (2026-09-28T00:00:00Z)", "", 0},
		{"drops_most", listOf(created, googleLike[:3]...), prev, time.Time{}, "it keeps 3 of the 8 prefixes of the list of 2026-09-30T00:00:00Z (less than half", "", 0},
		{"keeps_half", listOf(created, googleLike[:4]...), prev, time.Time{}, "", "", 4},
		{"covered_by_broader", listOf(created, "66.249.64.0/19", "2001:4860:4801::/48"), prev, time.Time{}, "", "", 2},
		{"renumbered_small_list", listOf(created, "207.46.13.0/24"), listOf(created.Add(-time.Hour), "157.55.39.0/24"), time.Time{}, "", "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := vetList(tc.list, tc.prev, now, tc.written)
			reasons := strings.Join(v.refused, "; ")
			switch {
			case tc.refused != "":
				if v.list != nil || !strings.Contains(reasons, tc.refused) {
					t.Fatalf("accepted=%v, reasons %q; want refused with %q", v.list != nil, reasons, tc.refused)
				}
				return
			case v.list == nil:
				t.Fatalf("refused: %s", reasons)
			}
			if got := v.list.Len(); got != tc.keep {
				t.Errorf("%d prefixes kept, want %d: %v", got, tc.keep, v.list.Prefixes())
			}
			if d := strings.Join(v.dropped, "; "); (tc.dropped == "") != (d == "") || !strings.Contains(d, tc.dropped) {
				t.Errorf("dropped %q, want %q", d, tc.dropped)
			}
		})
	}
}

func TestSpecialJSON(t *testing.T) {
	rs := specialRanges()
	if len(rs) < 20 {
		t.Fatalf("%d special-purpose ranges", len(rs))
	}
	for _, r := range rs {
		if !r.Prefix.IsValid() || r.Prefix != r.Prefix.Masked() || r.Name == "" || !strings.HasPrefix(r.RFC, "RFC ") {
			t.Errorf("bad entry %+v", r)
		}
	}
	// Every address netip calls private, loopback, link-local, multicast or
	// unspecified is special-purpose here too.
	for _, a := range []string{"10.1.2.3", "172.31.0.1", "192.168.1.1", "127.0.0.1", "169.254.1.1", "224.0.0.1",
		"0.0.0.0", "100.64.0.1", "255.255.255.255", "::", "::1", "fe80::1", "fd12::1", "ff02::1", "2001:db8::1"} {
		p := netip.PrefixFrom(netip.MustParseAddr(a), netip.MustParseAddr(a).BitLen())
		if in, _ := special(p); in == nil {
			t.Errorf("%s is not special-purpose", a)
		}
	}
	for _, a := range []string{"66.249.66.1", "2001:4860:4801:10::1", "8.8.8.8", "2a03:2880:f000::1"} {
		p := netip.PrefixFrom(netip.MustParseAddr(a), netip.MustParseAddr(a).BitLen())
		if in, over := special(p); in != nil || over != nil {
			t.Errorf("%s is special-purpose: %v %v", a, in, over)
		}
	}
}

func TestDuplicateKey(t *testing.T) {
	for _, tc := range []struct{ doc, at, key string }{
		{`{"creationTime": "x", "prefixes": []}`, "", ""},
		{`{"creationTime": "x", "creationTime": "y"}`, "", "creationTime"},
		{`{"creationTime": "x", "CreationTime": "y"}`, "", "CreationTime"},
		{`{"prefixes": [{"ipv4Prefix": "a"}, {"ipv4Prefix": "b", "ipv4Prefix": "c"}]}`, "prefixes[1]", "ipv4Prefix"},
		{`{"prefixes": [[], {"a": 1}], "x": {"y": {"z": 1, "z": 2}}}`, "x.y", "z"},
		{`{"services": {"GPTBot": {"ipv4": []}, "CCBot": {"ipv4": [], "ipv6": []}}}`, "", ""},
		{`[{"a": 1}, {"a": 1}]`, "", ""},
	} {
		at, key := duplicateKey([]byte(tc.doc))
		if at != tc.at || key != tc.key {
			t.Errorf("%s: %q %q, want %q %q", tc.doc, at, key, tc.at, tc.key)
		}
	}
	_, err := ParsePrefixes("g.json", []byte(`{"creationTime": "2026-08-21T14:45:42.000000", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}], "prefixes": [{"ipv4Prefix": "0.0.0.0/0"}]}`))
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), `g.json: not a range list of this shape: the document holds the key "prefixes" twice`) {
		t.Errorf("ParsePrefixes: %v", err)
	}
}

// TestVetRealHistories: the built-in snapshot (the operators' real
// histories) is checked as it is decoded. The only list refused is SE
// Ranking's backlinks list of 2026-06-02: 3 of the 95 addresses of the
// list before it, with 119 (again holding the 95) in the list after it,
// which is the cut list the shrink rule is for. The checks of the decoder
// (from deltas) and of vetList agree on every other version.
func TestVetRealHistories(t *testing.T) {
	r, err := Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var refused []string
	for _, s := range r.Sources() {
		for _, n := range s.Refused {
			refused = append(refused, s.Name+" "+stamp(n.Created)+": "+strings.Join(n.Reasons, "; "))
		}
		if len(s.Versions) == 0 {
			continue
		}
		vs := newSource(tableEntry{Name: s.Name})
		name := func(l *List) string { return s.Name + " " + stamp(l.Created) }
		if err := vs.setVetted(s.Versions, name, func(*List) time.Time { return time.Time{} }, time.Now()); err != nil {
			t.Fatal(err)
		}
		if len(vs.Refused) > 0 || len(vs.Dropped) > 0 {
			t.Errorf("%s: vetList refuses %v, drops %v of what the decoder accepted", s.Name, vs.Refused, vs.Dropped)
		}
	}
	want := "seranking-backlinks 2026-06-02T05:35:42Z: it keeps 3 of the 95 prefixes of the list of 2026-04-12T05:29:11Z (less than half)"
	if fmt.Sprint(refused) != "["+want+"]" {
		t.Errorf("refused %v, want only %s", refused, want)
	}
	// In the refused list's period, an address of the list before it is
	// verified and one outside it is not spoofed, as it is before.
	at := us(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))
	if c := r.Check("SERankingBacklinksBot", addr("5.9.120.8"), at); c.Identity != Verified {
		t.Errorf("an address of the list before: %+v", c)
	}
	if c := r.Check("SERankingBacklinksBot", addr("203.0.114.9"), at); c.Identity != Unverified {
		t.Errorf("an address outside the list before, in the refused list's period: %+v", c)
	}
	if c := r.Check("SERankingBacklinksBot", addr("203.0.114.9"), us(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))); c.Identity != Spoofed {
		t.Errorf("an address outside the list, before the refused one: %+v", c)
	}
}

// TestDecodeVersionsVets: versions of a snapshot are checked from their
// deltas, each against the last accepted one.
func TestDecodeVersionsVets(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	eight := []string{"66.249.64.0/27", "66.249.64.32/27", "66.249.64.64/27", "66.249.64.96/27",
		"66.249.65.0/27", "66.249.66.0/27", "66.249.67.0/27", "66.249.68.0/27"}
	ss := &snapshotSource{Name: "google-common-crawlers", Versions: []snapshotVersion{
		{Created: time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC), Add: []string{"66.249.69.0/27"}},
		{Created: day(1), Add: eight, Remove: []string{"66.249.69.0/27"}},
		{Created: day(2), Remove: eight[:6]},                                    // cut: 2 of 8
		{Created: day(3), Add: append(eight[:5:5], "66.249.70.0/27")},           // 7 of 8 again
		{Created: day(4), Add: []string{"10.0.0.0/8"}},                          // private
		{Created: day(5), Add: []string{"66.249.71.0/27"}},                      // still holds it
		{Created: day(6), Remove: []string{"10.0.0.0/8"}},                       // fine again
		{Created: day(7), Remove: append(eight[:5:5], eight[6:]...), Add: nil},  // cut: 3 of 10
		{Created: day(8), Remove: []string{"66.249.70.0/27", "66.249.71.0/27"}}, // nothing left
	}}
	s := newSource(tableEntry{Name: ss.Name})
	if err := s.decodeVersions(ss); err != nil {
		t.Fatal(err)
	}
	var accepted, refused []string
	for _, v := range s.Versions {
		accepted = append(accepted, fmt.Sprintf("%d:%d", v.Created.Day(), v.Len()))
	}
	for _, n := range s.Refused {
		refused = append(refused, fmt.Sprintf("%d: %s", n.Created.Day(), strings.Join(n.Reasons, "; ")))
	}
	if got := strings.Join(accepted, " "); got != "1:8 3:8 6:9" {
		t.Errorf("accepted %s", got)
	}
	want := []string{
		"31: its creation time 1999-12-31T00:00:00Z is before 2000",
		"2: it keeps 2 of the 8 prefixes of the list of 2026-01-01T00:00:00Z (less than half)",
		"4: it holds 10.0.0.0/8, which is private-use (10.0.0.0/8, RFC 1918)",
		"5: it holds 10.0.0.0/8, which is private-use (10.0.0.0/8, RFC 1918)",
		"7: it keeps 2 of the 9 prefixes of the list of 2026-01-06T00:00:00Z (less than half)",
		"8: it holds no prefix; it keeps 0 of the 9 prefixes of the list of 2026-01-06T00:00:00Z (less than half)",
	}
	if strings.Join(refused, "\n") != strings.Join(want, "\n") {
		t.Errorf("refused\n%s\nwant\n%s", strings.Join(refused, "\n"), strings.Join(want, "\n"))
	}
}

// writeRealGoogle stores Google's real common-crawlers list in
// dir/google-common-crawlers under its creation time, and returns it.
func writeRealGoogle(t *testing.T, dir string) *List {
	t.Helper()
	data, err := os.ReadFile(shareddata.Path(t, "ip-ranges/googlebot.latest.json"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := ParsePrefixes("googlebot.latest.json", data)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"google-common-crawlers/" + fileName(l.Created): string(data)})
	return l
}

// TestLoadDirRefuses: broken variants of Google's real list placed after
// it in a --ranges directory are refused, the real list stays in effect
// (a real Googlebot address stays verified), and in the period of the
// refused list an address outside the real list is unverified, never
// spoofed.
func TestLoadDirRefuses(t *testing.T) {
	at := func(s string) time.Time { t0, _ := time.Parse(time.RFC3339, s); return t0 }
	for _, tc := range []struct {
		name, file, body string
		reason           string
	}{
		{"empty", "2026-10-01T00:00:00Z.json", `{"creationTime": "2026-10-01T00:00:00.000000", "prefixes": []}`, "it holds no prefix"},
		{"default_route", "2026-10-01T00:00:00Z.json", `{"creationTime": "2026-10-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "0.0.0.0/0"}]}`, "the default route"},
		{"loopback_only", "2026-10-01T00:00:00Z.json", `{"creationTime": "2026-10-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "127.0.0.0/8"}, {"ipv6Prefix": "::1/128"}]}`, "special-purpose"},
		{"cut", "2026-10-01T00:00:00Z.json", `{"creationTime": "2026-10-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "203.0.114.0/24"}]}`, "it keeps 1 of the"},
		{"year_2099", "2099-01-01T00:00:00Z.json", `{"creationTime": "2099-01-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}]}`, "in the future"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			real := writeRealGoogle(t, dir)
			writeFiles(t, dir, map[string]string{"google-common-crawlers/" + tc.file: tc.body})
			r, err := LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			s := r.Source("google-common-crawlers")
			if len(s.Versions) != 1 || !s.Versions[0].Created.Equal(real.Created) {
				t.Fatalf("versions %v, want the real list only", s.Versions)
			}
			info := r.Info()[0]
			if len(info.Refused) != 1 || !strings.Contains(strings.Join(info.Refused[0].Reasons, "; "), tc.reason) ||
				info.Refused[0].File != filepath.Join(dir, "google-common-crawlers", tc.file) {
				t.Fatalf("refused %+v, want %s with %q", info.Refused, tc.file, tc.reason)
			}
			when := at("2026-10-15T00:00:00Z")
			if tc.name == "year_2099" {
				when = at("2099-02-01T00:00:00Z")
			}
			if c := r.Check("Googlebot", addr("66.249.66.1"), us(when)); c.Identity != Verified {
				t.Errorf("real Googlebot address after the refused list: %+v", c)
			}
			c := r.Check("Googlebot", addr("203.0.114.9"), us(when))
			if c.Identity != Unverified || !strings.Contains(c.Evidence, "was refused") {
				t.Errorf("address outside the real list, in the refused list's period: %+v", c)
			}
			// Before the refused list, the real list still accuses.
			if c := r.Check("Googlebot", addr("203.0.114.9"), us(real.Created.Add(time.Hour))); c.Identity != Spoofed {
				t.Errorf("before the refused list: %+v", c)
			}
		})
	}
}

// TestLoadDirOnlyRefused: a --ranges directory whose only Google list is
// refused leaves the snapshot's Google lists in effect, and makes no
// request spoofed in the refused list's period.
func TestLoadDirOnlyRefused(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"google-common-crawlers/2026-10-01T00:00:00Z.json": `{"creationTime": "2026-10-01T00:00:00.000000", "prefixes": []}`})
	over, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r := snap.Override(over)
	s := r.Source("google-common-crawlers")
	if len(s.Versions) != len(snap.Source("google-common-crawlers").Versions) || len(s.Refused) != 1 {
		t.Fatalf("%d versions, %d refused", len(s.Versions), len(s.Refused))
	}
	at := us(time.Date(2026, 10, 15, 0, 0, 0, 0, time.UTC))
	if c := r.Check("Googlebot", addr("66.249.66.1"), at); c.Identity != Verified {
		t.Errorf("real Googlebot: %+v", c)
	}
	if c := r.Check("Googlebot", addr("203.0.114.9"), at); c.Identity != Unverified {
		t.Errorf("impostor in the refused list's period: %+v", c)
	}
	if c := r.Check("Googlebot", addr("203.0.114.9"), us(time.Date(2026, 9, 15, 0, 0, 0, 0, time.UTC))); c.Identity != Spoofed {
		t.Errorf("impostor before the refused list: %+v", c)
	}
	// The answer's interval ends where the refused list begins.
	c := r.Check("Googlebot", addr("203.0.114.9"), us(time.Date(2026, 9, 15, 0, 0, 0, 0, time.UTC)))
	if c.Until != us(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Until %d", c.Until)
	}
}
