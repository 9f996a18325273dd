package report

import (
	"bufio"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strings"
)

// BlocklistStats counts what WriteBlocklist did with its input.
type BlocklistStats struct {
	// Written is the number of distinct addresses written.
	Written int
	// Invalid counts inputs that are not an IP address in canonical
	// netip.ParseAddr syntax ("1.2.3.4; rm -rf", "999.1.1.1", "01.2.3.4",
	// " 1.2.3.4", an address with a zone such as "fe80::1%eth0"), dropped.
	Invalid int
	// NotBlockable counts valid addresses that are never the source of a
	// client's connection, or that would cut the host off from itself if
	// blocked: unspecified (0.0.0.0, ::), loopback (127.0.0.0/8, ::1),
	// multicast and the IPv4 broadcast address 255.255.255.255, dropped.
	NotBlockable int
	// Duplicates counts inputs that repeat an address already seen (after
	// IPv4-mapped IPv6 addresses are unmapped), dropped.
	Duplicates int
}

// Dropped returns the number of inputs not written because they were
// invalid or not blockable (duplicates are not counted: their address is
// written once).
func (s BlocklistStats) Dropped() int { return s.Invalid + s.NotBlockable }

// WriteBlocklist writes blocklist.txt, one address a line for any firewall, to w: the header, then
// one address per line. Each of ips is validated with net/netip; invalid,
// zoned and not blockable addresses are dropped and counted, never written.
// IPv4-mapped IPv6 addresses (::ffff:1.2.3.4) are written as IPv4
// (1.2.3.4). The addresses are deduplicated and sorted numerically, IPv4
// before IPv6, and written in canonical form (IPv6 compressed, lowercase, as
// RFC 5952 asks).
//
// header is written first, each of its lines prefixed "# " (an empty line as
// "#"). Every line break in it — LF, CR, CRLF, VT, FF, NEL, U+2028, U+2029 —
// starts a new comment line, and other control characters are escaped as in
// SafeCell, so no header text can put an address line into the file. An
// empty header writes no header lines.
func WriteBlocklist(w io.Writer, ips []string, header string) (BlocklistStats, error) {
	var invalid int
	addrs := make([]netip.Addr, 0, len(ips))
	for _, s := range ips {
		a, err := netip.ParseAddr(s)
		if err != nil {
			invalid++
			continue
		}
		addrs = append(addrs, a)
	}
	st, err := WriteBlocklistAddrs(w, addrs, header)
	st.Invalid += invalid
	return st, err
}

// WriteBlocklistAddrs is WriteBlocklist for addresses already parsed: the
// same file from as many addresses without their text (a block list may
// hold millions). addrs is sorted and compacted in place; an address with a
// zone counts as invalid.
func WriteBlocklistAddrs(w io.Writer, addrs []netip.Addr, header string) (BlocklistStats, error) {
	var st BlocklistStats
	kept := addrs[:0]
	for _, a := range addrs {
		if !a.IsValid() || a.Zone() != "" {
			st.Invalid++
			continue
		}
		a = a.Unmap()
		if !blockable(a) {
			st.NotBlockable++
			continue
		}
		kept = append(kept, a)
	}
	addrs = kept
	slices.SortFunc(addrs, netip.Addr.Compare)
	n := len(addrs)
	addrs = slices.Compact(addrs)
	st.Duplicates = n - len(addrs)
	st.Written = len(addrs)

	bw := bufio.NewWriter(w)
	for _, line := range headerLines(header) {
		if line == "" {
			bw.WriteString("#\n")
		} else {
			bw.WriteString("# ")
			bw.WriteString(line)
			bw.WriteByte('\n')
		}
	}
	var buf []byte
	for _, a := range addrs {
		buf = a.AppendTo(buf[:0])
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	if err := bw.Flush(); err != nil {
		return st, fmt.Errorf("cannot write block list: %w", err)
	}
	return st, nil
}

// blockable reports whether a (unmapped, zone-less) may be written to a
// block list.
func blockable(a netip.Addr) bool {
	switch {
	case a.IsUnspecified(), a.IsLoopback(), a.IsMulticast():
		return false
	case a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return false
	}
	return true
}

// headerLines splits a header into lines at every kind of line break and
// escapes the other control characters; trailing spaces and a final line
// break are dropped.
func headerLines(header string) []string {
	if header == "" {
		return nil
	}
	header = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\v", "\n", "\f", "\n",
		"\u0085", "\n", "\u2028", "\n", "\u2029", "\n").Replace(header)
	header = strings.TrimSuffix(header, "\n")
	lines := strings.Split(header, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(escapeControls(l), " ")
	}
	return lines
}
