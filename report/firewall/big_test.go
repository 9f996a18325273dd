package firewall

import (
	"bytes"
	"os/exec"
	"testing"
	"time"
)

// TestNftables200k: a list of 200,000 addresses, the size a busy site's
// list reaches, is accepted by
// nft -c -f as written. Its speed is BenchmarkFormats200k's.
func TestNftables200k(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 200,000 addresses")
	}
	nft := netfilterTool(t, "nft")
	l, _ := Build(manyEntries(200_000), Options{}, Meta{TTL: 720 * time.Hour})
	var b bytes.Buffer
	if err := WriteNftables(&b, l); err != nil {
		t.Fatal(err)
	}
	path := nfWriteTemp(t, "blocklist.nft", b.Bytes())
	if out, err := exec.Command(nft, "-c", "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("nft -c -f on %d blocks (%d bytes): %v\n%s", len(l.Blocks), b.Len(), err, out)
	}
	t.Logf("nft -c accepted %d addresses in %d elements (%d bytes)", len(l.Entries), len(l.Blocks), b.Len())
}
