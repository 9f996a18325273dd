package firewall

import (
	"io"
	"net/netip"
	"strings"

	"github.com/crawlaudit/crawlaudit/report"
)

// Text is blocklist.txt, the block list every --out holds: one address per
// line, for a script or a tool that takes plain addresses. It is not a
// --block-format (no name selects it or leaves it out), so it is not among
// Formats; a writer of the files that --out holds writes Text and then the
// formats asked for, in one loop.
var Text = Format{Name: "txt", Files: []File{{Name: "blocklist.txt", Write: WriteText}}}

// WriteText writes blocklist.txt: the header as "# " comments, then one
// address per line, IPv4 first, each once and canonical (report.WriteBlocklistAddrs
// checks every address again, so no line of the file is anything else).
func WriteText(w io.Writer, l *List) error {
	addrs := make([]netip.Addr, len(l.Entries))
	for i, e := range l.Entries {
		addrs[i] = e.Addr
	}
	_, err := report.WriteBlocklistAddrs(w, addrs, strings.Join(l.Meta.Lines(l), "\n"))
	return err
}
