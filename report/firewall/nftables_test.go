package firewall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestNftablesGolden(t *testing.T) {
	checkGolden(t, "blocklist.nft", writeFile(t, "nftables", "blocklist.nft", fixtureList(t)))
}

func TestNftDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{720 * time.Hour, "30d"},
		{24 * time.Hour, "1d"},
		{26*time.Hour + 30*time.Minute + 5*time.Second, "1d2h30m5s"},
		{90 * time.Minute, "1h30m"},
		{45 * time.Second, "45s"},
		{1500 * time.Millisecond, "2s"},
		{time.Nanosecond, "1s"},
		{1<<63 - 1, "106751d23h47m17s"},
	} {
		if got := nftDuration(tc.d); got != tc.want {
			t.Errorf("nftDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestNftablesLoads loads each list into nft in a private network
// namespace, twice (the second load must replace the first), and compares
// the sets the kernel holds with the list's blocks.
func TestNftablesLoads(t *testing.T) {
	netfilterTool(t, "nft")
	for _, tc := range netfilterLists(t) {
		t.Run(tc.name, func(t *testing.T) {
			file := nfWriteTemp(t, "blocklist.nft", writeFile(t, "nftables", "blocklist.nft", tc.list))
			out := inNetns(t, `nft -c -f "$1"; nft -f "$1"; nft -f "$1"; nft -j list table inet crawlaudit`, file)
			got := parseNftTable(t, out)
			for _, set := range []string{nftSetV4, nftSetV6} {
				if _, ok := got.sets[set]; !ok {
					t.Errorf("no set %s in the table", set)
				}
			}
			checkNftSet(t, got.sets[nftSetV4], tc.list.Family(4), tc.list.Meta.TTL)
			checkNftSet(t, got.sets[nftSetV6], tc.list.Family(6), tc.list.Meta.TTL)
			if want := []string{"forward", "input"}; !slices.Equal(got.chains, want) {
				t.Errorf("chains %v, want %v", got.chains, want)
			}
			if got.rules != 4 {
				t.Errorf("%d rules, want 4 (one per family in input and forward)", got.rules)
			}
		})
	}
}

// TestNftablesReloadReplaces loads the fixture, then a list without IPv4
// blocks: no element of the first may survive the second.
func TestNftablesReloadReplaces(t *testing.T) {
	netfilterTool(t, "nft")
	lists := netfilterLists(t)
	first := nfWriteTemp(t, "first.nft", writeFile(t, "nftables", "blocklist.nft", lists[0].list))
	v6 := nfListNamed(t, lists, "ipv6 only")
	second := nfWriteTemp(t, "second.nft", writeFile(t, "nftables", "blocklist.nft", v6))
	got := parseNftTable(t, inNetns(t, `nft -f "$1"; nft -f "$2"; nft -j list table inet crawlaudit`, first, second))
	checkNftSet(t, got.sets[nftSetV4], nil, v6.Meta.TTL)
	checkNftSet(t, got.sets[nftSetV6], v6.Family(6), v6.Meta.TTL)
}

// nftElem is one element of a set as nft -j lists it.
type nftElem struct {
	prefix  netip.Prefix
	timeout int64 // seconds; 0 for none
	comment string
}

// nftListing is what nft -j list table returns, reduced to what the tests
// check.
type nftListing struct {
	sets   map[string][]nftElem
	chains []string
	rules  int
}

func parseNftTable(t *testing.T, out []byte) nftListing {
	t.Helper()
	var doc struct {
		Nftables []struct {
			Set *struct {
				Name string            `json:"name"`
				Elem []json.RawMessage `json:"elem"`
			} `json:"set"`
			Chain *struct {
				Name string `json:"name"`
			} `json:"chain"`
			Rule *json.RawMessage `json:"rule"`
		} `json:"nftables"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("nft -j: %v\n%s", err, out)
	}
	tab := nftListing{sets: map[string][]nftElem{}}
	for _, o := range doc.Nftables {
		switch {
		case o.Set != nil:
			elems := []nftElem{}
			for _, raw := range o.Set.Elem {
				elems = append(elems, parseNftElem(t, raw))
			}
			tab.sets[o.Set.Name] = elems
		case o.Chain != nil:
			tab.chains = append(tab.chains, o.Chain.Name)
		case o.Rule != nil:
			tab.rules++
		}
	}
	slices.Sort(tab.chains)
	return tab
}

// parseNftElem reads an element: "192.0.2.1", {"prefix": …}, or either
// inside {"elem": {"val": …, "timeout": …, "comment": …}}.
func parseNftElem(t *testing.T, raw json.RawMessage) nftElem {
	t.Helper()
	var wrapped struct {
		Elem *struct {
			Val     json.RawMessage `json:"val"`
			Timeout int64           `json:"timeout"`
			Comment string          `json:"comment"`
		} `json:"elem"`
	}
	var e nftElem
	val := raw
	if json.Unmarshal(raw, &wrapped) == nil && wrapped.Elem != nil {
		val, e.timeout, e.comment = wrapped.Elem.Val, wrapped.Elem.Timeout, wrapped.Elem.Comment
	}
	var s string
	var p struct {
		Prefix struct {
			Addr string `json:"addr"`
			Len  int    `json:"len"`
		} `json:"prefix"`
	}
	var err error
	switch {
	case json.Unmarshal(val, &s) == nil:
		var a netip.Addr
		a, err = netip.ParseAddr(s)
		e.prefix = netip.PrefixFrom(a, a.BitLen())
	case json.Unmarshal(val, &p) == nil && p.Prefix.Addr != "":
		e.prefix, err = netip.ParsePrefix(fmt.Sprintf("%s/%d", p.Prefix.Addr, p.Prefix.Len))
	default:
		t.Fatalf("unexpected set element %s", raw)
	}
	if err != nil {
		t.Fatalf("set element %s: %v", raw, err)
	}
	return e
}

// checkNftSet compares a set's elements with blocks: one element per block,
// its comment the block's reason, its timeout the TTL.
func checkNftSet(t *testing.T, got []nftElem, blocks []Block, ttl time.Duration) {
	t.Helper()
	if len(got) != len(blocks) {
		t.Errorf("%d elements, want %d (one per block): %v", len(got), len(blocks), got)
		return
	}
	var wantTimeout int64
	if ttl > 0 {
		wantTimeout = ttlSeconds(ttl)
	}
	for i, b := range blocks {
		want := nftElem{b.Prefix, wantTimeout, b.Reason()}
		if got[i] != want {
			t.Errorf("element %d = %+v, want %+v", i, got[i], want)
		}
	}
}

// TestNetfilterHostileNames checks, without the tools, that bot names
// cannot add a line or end a quoted comment in any file of the nftables,
// ipset and iptables formats: the file of the hostile list has as many
// lines as that of the same list with tame names, and every line of it
// that is not a comment holds no '"' or exactly two. (The tests that load
// the files check the rest where the tools can run.)
func TestNetfilterHostileNames(t *testing.T) {
	hostile := nfListNamed(t, netfilterLists(t), "hostile names")
	tame := *hostile
	tame.Blocks = nil
	for _, b := range hostile.Blocks {
		es := slices.Clone(b.Entries)
		for i := range es {
			es[i].Claims = []Claim{{Bot: "bot", Identity: "unverified"}}
		}
		tame.Blocks = append(tame.Blocks, Block{Prefix: b.Prefix, Entries: es})
	}
	for _, f := range []struct{ format, file string }{
		{"nftables", "blocklist.nft"},
		{"ipset", "blocklist.ipset"},
		{"iptables", "blocklist.iptables"},
		{"iptables", "blocklist.ip6tables"},
	} {
		got := string(writeFile(t, f.format, f.file, hostile))
		want := string(writeFile(t, f.format, f.file, &tame))
		if g, w := strings.Count(got, "\n"), strings.Count(want, "\n"); g != w {
			t.Errorf("%s: %d lines with hostile names, %d with tame ones:\n%s", f.file, g, w, got)
		}
		for _, line := range strings.Split(got, "\n") {
			if n := strings.Count(line, `"`); !strings.HasPrefix(line, "#") && n != 0 && n != 2 {
				t.Errorf("%s: %d quotes in %q", f.file, n, line)
			}
		}
	}
}

// The helpers below are shared by the nftables, ipset and iptables tests.

// netfilterCase is one list every netfilter tool must accept.
type netfilterCase struct {
	name string
	list *List
}

// netfilterHostileBots are bot names that try to end a comment, a quoted string, an
// element, a set, a line or a command in nft, ipset and iptables-restore
// syntax, or to run a shell.
var netfilterHostileBots = []string{
	`"`, "\n", "}", "{", ";", "#", "`id`", "$(reboot)", "\u2028", "\r", "\\", "'", "\x00", "\t",
	`" ; flush ruleset ; "`, "\n}\nflush ruleset\n", "\"\nCOMMIT\n*filter\n-F\n", `" -j ACCEPT -m comment --comment "`,
	"\ncreate evil hash:ip\n", "\ndestroy\n", "-exist", "--noflush", strings.Repeat("LongBotName", 20),
}

// netfilterLists returns the lists the netfilter tools must accept: the
// fixture, an empty list, a list with only IPv6 blocks, the fixture without
// a TTL, and a list whose bot names are netfilterHostileBots, each at its own
// address (no two adjacent, so each is a block of its own).
func netfilterLists(t *testing.T) []netfilterCase {
	t.Helper()
	fixture := fixtureList(t)
	meta := fixture.Meta
	build := func(es []Entry, meta Meta) *List {
		l, _ := Build(es, Options{}, meta)
		return l
	}
	var v6 []Entry
	for _, e := range fixtureEntries() {
		if e.Addr.Is6() && !e.Addr.Is4In6() {
			v6 = append(v6, e)
		}
	}
	noTTL := meta
	noTTL.TTL = 0
	var hostile []Entry
	for i, bot := range netfilterHostileBots {
		e := Entry{
			Addr:      netip.AddrFrom4([4]byte{203, 0, 113, byte(2*i + 1)}),
			Claims:    []Claim{{Bot: bot, Identity: "unverified"}, {Bot: "x" + bot, Identity: bot}},
			FirstSeen: fixtureTime.Add(-time.Hour), LastSeen: fixtureTime,
		}
		e.Counts[Disallowed] = int64(i + 1)
		hostile = append(hostile, e)
	}
	all := Entry{Addr: netip.MustParseAddr("2001:db8:dead::1"), Claims: []Claim{{Bot: strings.Join(netfilterHostileBots, ""), Identity: "spoofed"}}}
	all.Counts[Spoofed] = 1
	hostile = append(hostile, all)
	return []netfilterCase{
		{"fixture", fixture},
		{"empty", build(nil, meta)},
		{"ipv6 only", build(v6, meta)},
		{"no ttl", build(fixtureEntries(), noTTL)},
		{"hostile names", build(hostile, meta)},
	}
}

// nfListNamed returns the list of the case named name.
func nfListNamed(t *testing.T, cases []netfilterCase, name string) *List {
	t.Helper()
	for _, c := range cases {
		if c.name == name {
			return c.list
		}
	}
	t.Fatalf("no list %q", name)
	return nil
}

// netfilterTool returns the path of a tool, from PATH or /usr/sbin or
// /sbin, or skips the test.
func netfilterTool(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	skipNoTool(t, "%s is not installed (neither in PATH nor in /usr/sbin or /sbin): cannot check the file with it", name)
	return ""
}

var nfNetns struct {
	once sync.Once
	err  error
}

// inNetns runs script with sh -e in a private network namespace (unshare
// -n), with args as $1, $2…, and returns its standard output. It skips the
// test when no namespace can be made (not root), and fails it when the
// script fails.
func inNetns(t *testing.T, script string, args ...string) []byte {
	t.Helper()
	nfNetns.once.Do(func() {
		if _, err := exec.LookPath("unshare"); err != nil {
			nfNetns.err = err
			return
		}
		if out, err := exec.Command("unshare", "-n", "true").CombinedOutput(); err != nil {
			nfNetns.err = fmt.Errorf("%v: %s", err, bytes.TrimSpace(out))
		}
	})
	if nfNetns.err != nil {
		t.Skipf("cannot make a private network namespace to load the file into (unshare -n needs root): %v", nfNetns.err)
	}
	cmd := exec.Command("unshare", append([]string{"-n", "sh", "-ec", script, "sh"}, args...)...)
	cmd.Env = append(os.Environ(), "PATH=/usr/sbin:/sbin:/usr/bin:/bin:"+os.Getenv("PATH"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("unshare -n sh -ec '%s' %s: %v\n%s%s", script, strings.Join(args, " "), err, stderr.Bytes(), nfNumbered(args))
	}
	return out
}

// nfNumbered returns the files among args with numbered lines, for a
// failure's message (the tools name lines by number).
func nfNumbered(args []string) string {
	var sb strings.Builder
	for _, a := range args {
		b, err := os.ReadFile(a)
		if err != nil {
			continue
		}
		fmt.Fprintf(&sb, "--- %s\n", a)
		for i, line := range strings.SplitAfter(string(b), "\n") {
			if line != "" {
				fmt.Fprintf(&sb, "%4d  %s", i+1, line)
			}
		}
	}
	return sb.String()
}

// nfWriteTemp writes b to a file named name in a new temporary directory.
func nfWriteTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
