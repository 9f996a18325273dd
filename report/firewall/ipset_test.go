package firewall

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestIpsetGolden(t *testing.T) {
	checkGolden(t, "blocklist.ipset", writeFile(t, "ipset", "blocklist.ipset", fixtureList(t)))
}

func TestIpsetMaxelem(t *testing.T) {
	for _, tc := range []struct{ n, want int }{
		{0, 65536}, {1, 65536}, {65536, 65536}, {65537, 131072}, {131072, 131072}, {1_000_000, 1 << 20},
	} {
		if got := ipsetMaxelem(tc.n); got != tc.want {
			t.Errorf("ipsetMaxelem(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

// TestIpsetRestores restores each list twice in a private network
// namespace and compares the sets ipset holds with the list's blocks.
func TestIpsetRestores(t *testing.T) {
	netfilterTool(t, "ipset")
	lists := netfilterLists(t)
	long := *lists[0].list
	long.Meta.TTL = 365 * 24 * time.Hour
	lists = append(lists, netfilterCase{"ttl over the cap", &long})
	for _, tc := range lists {
		t.Run(tc.name, func(t *testing.T) {
			file := nfWriteTemp(t, "blocklist.ipset", writeFile(t, "ipset", "blocklist.ipset", tc.list))
			out := inNetns(t, `ipset restore -f "$1"; ipset restore -f "$1"; ipset list -o save`, file)
			checkIpsets(t, string(out), tc.list)
		})
	}
}

// TestIpsetReloadReplaces restores the fixture, makes a rule use its IPv4
// set, and restores a list without IPv4 blocks: the set in use must then be
// empty, still used by the rule, and the "-new" sets gone.
func TestIpsetReloadReplaces(t *testing.T) {
	netfilterTool(t, "ipset")
	netfilterTool(t, "iptables")
	lists := netfilterLists(t)
	first := nfWriteTemp(t, "first.ipset", writeFile(t, "ipset", "blocklist.ipset", lists[0].list))
	v6 := nfListNamed(t, lists, "ipv6 only")
	second := nfWriteTemp(t, "second.ipset", writeFile(t, "ipset", "blocklist.ipset", v6))
	out := inNetns(t, `ipset restore -f "$1"
		iptables -I INPUT -m set --match-set crawlaudit-v4 src -j DROP
		ipset restore -f "$2"
		iptables -S INPUT | grep -c -- '--match-set crawlaudit-v4 src -j DROP'
		ipset list -o save`, first, second)
	refs, saved, _ := strings.Cut(string(out), "\n")
	if refs != "1" {
		t.Errorf("%s rules use crawlaudit-v4 after the reload, want 1", refs)
	}
	checkIpsets(t, saved, v6)
}

// TestIpsetBig restores a list of more IPv4 blocks than ipset's default
// maxelem.
func TestIpsetBig(t *testing.T) {
	netfilterTool(t, "ipset")
	inNetns(t, "true") // skip before building the list when no namespace can be made
	es := make([]Entry, 70000)
	for i := range es {
		n := uint32(0x0a000000 + 2*i) // 10.0.0.0, 10.0.0.2, …: none adjacent
		es[i] = Entry{Addr: netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})}
		es[i].Counts[Disallowed] = 1
	}
	l, _ := Build(es, Options{}, fixtureList(t).Meta)
	file := nfWriteTemp(t, "blocklist.ipset", writeFile(t, "ipset", "blocklist.ipset", l))
	out := inNetns(t, `ipset restore -f "$1"; ipset list -t crawlaudit-v4`, file)
	for _, want := range []string{"maxelem 131072 ", "Number of entries: 70000\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("ipset list -t has no %q:\n%s", want, out)
		}
	}
}

// ipsetMember is an entry of a set as ipset save writes it.
type ipsetMember struct {
	prefix  netip.Prefix
	comment string
}

// checkIpsets compares the output of ipset save with the blocks of l: the
// two sets and nothing else, one member per block with its reason as
// comment, and timeouts from l's TTL.
func checkIpsets(t *testing.T, saved string, l *List) {
	t.Helper()
	var names []string
	members := map[string][]ipsetMember{}
	for _, line := range strings.Split(strings.TrimSpace(saved), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "create":
			names = append(names, f[1])
		case len(f) >= 3 && f[0] == "add":
			rest, comment, _ := strings.Cut(line, ` comment "`)
			m := ipsetMember{comment: strings.TrimSuffix(comment, `"`)}
			var err error
			if strings.Contains(f[2], "/") {
				m.prefix, err = netip.ParsePrefix(f[2])
			} else {
				var a netip.Addr
				a, err = netip.ParseAddr(f[2])
				m.prefix = netip.PrefixFrom(a, a.BitLen())
			}
			if err != nil {
				t.Fatalf("ipset save: %q: %v", line, err)
			}
			checkIpsetTimeout(t, strings.Fields(rest), l.Meta.TTL)
			members[f[1]] = append(members[f[1]], m)
		case line != "":
			t.Errorf("ipset save: unexpected line %q", line)
		}
	}
	slices.Sort(names)
	if want := []string{ipsetV4, ipsetV6}; !slices.Equal(names, want) {
		t.Errorf("sets %v, want %v", names, want)
	}
	for _, fam := range []struct {
		set    string
		blocks []Block
	}{{ipsetV4, l.Family(4)}, {ipsetV6, l.Family(6)}} {
		var want []ipsetMember
		for _, b := range fam.blocks {
			want = append(want, ipsetMember{b.Prefix, b.Reason()})
		}
		got := members[fam.set]
		// ipset save lists a hash in no particular order.
		slices.SortFunc(got, func(a, b ipsetMember) int { return a.prefix.Addr().Compare(b.prefix.Addr()) })
		if !slices.Equal(got, want) {
			t.Errorf("%s holds %d members, want %d (one per block):\n got %v\nwant %v", fam.set, len(got), len(want), got, want)
		}
	}
}

// checkIpsetTimeout checks the timeout of an add line: none or 0 without a
// TTL, else the TTL capped at IpsetMaxTimeout, less the seconds the test
// took.
func checkIpsetTimeout(t *testing.T, f []string, ttl time.Duration) {
	t.Helper()
	got := int64(0)
	if i := slices.Index(f, "timeout"); i >= 0 && i+1 < len(f) {
		got, _ = strconv.ParseInt(f[i+1], 10, 64)
	}
	want := int64(0)
	if ttl > 0 {
		want = min(ttlSeconds(ttl), IpsetMaxTimeout)
	}
	if got > want || got < want-5 {
		t.Errorf("%v: timeout %d, want %d", f, got, want)
	}
}
