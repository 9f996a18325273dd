package firewall

import (
	"bufio"
	"fmt"
	"slices"
	"strings"
)

// formatOrder is the order of --block-format names in help texts and of the
// files --out writes.
var formatOrder = []string{"cidr", "nftables", "ipset", "iptables", "nginx", "apache", "haproxy", "cloudflare", "aws-waf", "crowdsec", "csv"}

// registered holds the formats, each added by the file that writes it.
var registered = map[string]Format{}

func register(f Format) {
	if !slices.Contains(formatOrder, f.Name) {
		panic("firewall: format " + f.Name + " is not in formatOrder")
	}
	registered[f.Name] = f
}

// Formats returns every format, in a fixed order.
func Formats() []Format {
	var fs []Format
	for _, n := range formatOrder {
		if f, ok := registered[n]; ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// FormatNames returns the names of Formats.
func FormatNames() []string {
	var ns []string
	for _, f := range Formats() {
		ns = append(ns, f.Name)
	}
	return ns
}

// ParseFormats parses --block-format: a comma list of format names, or
// "all"; "" is none. The formats come back in Formats' order, each once.
func ParseFormats(s string) ([]Format, error) {
	want := map[string]bool{}
	for _, n := range strings.Split(s, ",") {
		n = strings.ToLower(strings.TrimSpace(n))
		switch {
		case n == "":
		case n == "all":
			for _, f := range Formats() {
				want[f.Name] = true
			}
		case registered[n].Name == "":
			return nil, fmt.Errorf("--block-format: unknown format %q (formats: %s, all)", n, strings.Join(FormatNames(), ", "))
		default:
			want[n] = true
		}
	}
	var fs []Format
	for _, f := range Formats() {
		if want[f.Name] {
			fs = append(fs, f)
		}
	}
	return fs, nil
}

// writeHeader writes the header lines of l, each after prefix ("# ").
func writeHeader(w *bufio.Writer, l *List, prefix string) {
	for _, line := range l.Meta.Lines(l) {
		w.WriteString(prefix)
		w.WriteString(line)
		w.WriteByte('\n')
	}
}

// flush flushes w, naming the format in the error.
func flush(w *bufio.Writer, format string) error {
	if err := w.Flush(); err != nil {
		return fmt.Errorf("cannot write %s block list: %w", format, err)
	}
	return nil
}
