package firewall

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
)

func TestIptablesGolden(t *testing.T) {
	for _, name := range []string{"blocklist.iptables", "blocklist.ip6tables"} {
		checkGolden(t, name, writeFile(t, "iptables", name, fixtureList(t)))
	}
}

// iptablesFamilies are the two files of the format, each with the
// family of its blocks and the programs that load and list it.
var iptablesFamilies = []struct {
	file    string
	family  int
	restore string // the name of the restore program, for the default backend
	list    string
}{
	{"blocklist.iptables", 4, "iptables-restore", "iptables"},
	{"blocklist.ip6tables", 6, "ip6tables-restore", "ip6tables"},
}

// iptablesBackends are the backends a file is loaded with: the default
// (iptables-nft on Debian) and, where installed, the legacy one.
var iptablesBackends = []struct{ name, suffix string }{
	{"default", ""},
	{"legacy", "-legacy"},
}

// TestIptablesRestores loads each list's files with iptables-restore and
// ip6tables-restore, default and legacy backends, in a private network
// namespace: --test, then --noflush twice (the second load must replace
// the first), and compares the chain's rules with the family's blocks.
func TestIptablesRestores(t *testing.T) {
	for _, fam := range iptablesFamilies {
		for _, be := range iptablesBackends {
			restore := strings.Replace(fam.restore, "-restore", be.suffix+"-restore", 1)
			list := fam.list + be.suffix
			t.Run(fam.file+"/"+be.name, func(t *testing.T) {
				netfilterTool(t, restore)
				netfilterTool(t, list)
				for _, tc := range netfilterLists(t) {
					file := nfWriteTemp(t, fam.file, writeFile(t, "iptables", fam.file, tc.list))
					out := inNetns(t, restore+` --test "$1"; `+restore+` --noflush "$1"; `+restore+` --noflush "$1"; `+list+` -S `+IptablesChain, file)
					checkIptablesChain(t, tc.name, string(out), tc.list.Family(fam.family))
				}
			})
		}
	}
}

// TestIptablesReloadReplaces loads the fixture's IPv4 file, hooks the chain
// into INPUT as the header says, then loads the file of a list without
// IPv4 blocks: the chain must be empty and INPUT keep its one jump.
func TestIptablesReloadReplaces(t *testing.T) {
	netfilterTool(t, "iptables-restore")
	netfilterTool(t, "iptables")
	lists := netfilterLists(t)
	first := nfWriteTemp(t, "first", writeFile(t, "iptables", "blocklist.iptables", lists[0].list))
	second := nfWriteTemp(t, "second", writeFile(t, "iptables", "blocklist.iptables", nfListNamed(t, lists, "ipv6 only")))
	out := inNetns(t, `iptables-restore --noflush "$1"
		iptables -I INPUT -j crawlaudit-block
		iptables-restore --noflush "$2"
		iptables -S INPUT | grep -c -- '-j crawlaudit-block'
		iptables -S crawlaudit-block`, first, second)
	jumps, chain, _ := strings.Cut(string(out), "\n")
	if jumps != "1" {
		t.Errorf("%s jumps from INPUT to the chain after the reload, want 1", jumps)
	}
	checkIptablesChain(t, "reloaded", chain, nil)
}

// checkIptablesChain compares the output of iptables -S crawlaudit-block
// with blocks: one DROP rule per block, in order, its comment the block's
// reason.
func checkIptablesChain(t *testing.T, name, out string, blocks []Block) {
	t.Helper()
	type rule struct {
		prefix  netip.Prefix
		comment string
	}
	var got, want []rule
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "-N "+IptablesChain {
			continue
		}
		rest, ok := strings.CutPrefix(line, "-A "+IptablesChain+" -s ")
		src, rest, _ := strings.Cut(rest, " ")
		rest, ok2 := strings.CutPrefix(rest, "-m comment --comment ")
		comment, ok3 := strings.CutSuffix(rest, " -j DROP")
		p, err := netip.ParsePrefix(src)
		if !ok || !ok2 || !ok3 || err != nil {
			t.Errorf("%s: unexpected rule %q", name, line)
			continue
		}
		if c, ok := strings.CutPrefix(comment, `"`); ok {
			comment = strings.TrimSuffix(c, `"`)
		}
		got = append(got, rule{p, comment})
	}
	for _, b := range blocks {
		want = append(want, rule{b.Prefix, b.Reason()})
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: %d rules, want %d (one per block):\n got %v\nwant %v", name, len(got), len(want), got, want)
	}
}
