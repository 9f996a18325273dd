package firewall

import (
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"go4.org/netipx"
)

// Kind is a kind of finding that may put an address on a block list
// (--block-on).
type Kind int

// The kinds, in the order of Entry.Counts.
const (
	Disallowed  Kind = iota // disallowed requests
	Spoofed                 // requests whose claimed crawler's operator did not make them
	InGrace                 // disallowed requests inside the grace period of a change
	CrawlDelay              // Crawl-delay breaches
	RequestRate             // Request-rate breaches
	VisitTime               // Visit-time breaches
	Unreachable             // requests while robots.txt was unreachable
	NumKinds
)

var kindNames = [NumKinds]string{"disallowed", "spoofed", "in-grace", "crawl-delay", "request-rate", "visit-time", "unreachable"}

// String returns the kind's name as --block-on spells it.
func (k Kind) String() string {
	if k < 0 || k >= NumKinds {
		return "kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// ParseKind returns the kind --block-on names s.
func ParseKind(s string) (Kind, bool) {
	for k, n := range kindNames {
		if n == s {
			return Kind(k), true
		}
	}
	return 0, false
}

// Claim is one crawler an address claimed to be, and what verification
// found (verified, spoofed or unverified).
type Claim struct {
	Bot, Identity string
	// Predates is set on an unverified claim of a crawler whose operator
	// publishes ranges, made before the first list: the lists could not
	// say whether the address was the operator's, so the address is listed
	// for what it did, never as an impostor.
	Predates bool
	// Signature is the outcome of the Web Bot Auth signature that made a
	// spoofed claim spoofed: "invalid", "replayed", or "valid" (a valid
	// signature of another operator than the crawler's); empty otherwise.
	Signature string
}

// PredatesNote is what the files say of a claim that predates its
// operator's lists.
const PredatesNote = "logs predate its published ranges"

// IdentityText is the claim's identity as the files write it:
// "unverified (logs predate its published ranges)" for one that predates
// its operator's lists.
func (c Claim) IdentityText() string {
	if c.Predates {
		return c.Identity + " (" + PredatesNote + ")"
	}
	switch c.Signature {
	case "invalid", "replayed":
		return c.Identity + " (" + c.Signature + " signature)"
	case "valid":
		return c.Identity + " (signed by another operator)"
	}
	return c.Identity
}

// Entry is one client address that qualifies for the block list, with why.
type Entry struct {
	// Addr is the address, unmapped (an IPv4-mapped IPv6 address is its
	// IPv4 address) and without a zone.
	Addr netip.Addr
	// Counts are its requests per Kind.
	Counts [NumKinds]int64
	// Claims are the crawlers its requests claimed, in order.
	Claims []Claim
	// FirstSeen and LastSeen are the times of its first and last request.
	FirstSeen, LastSeen time.Time
}

// Block is one prefix of a block list and the qualifying addresses it
// covers.
type Block struct {
	Prefix netip.Prefix
	// Entries are the qualifying addresses inside Prefix, in order; a
	// sub-slice of List.Entries.
	Entries []Entry
}

// Single reports whether b is one address (a /32 or /128).
func (b Block) Single() bool { return b.Prefix.IsSingleIP() }

// String returns the prefix as a firewall reads it: an address alone for
// a single address, else the CIDR.
func (b Block) String() string {
	if b.Single() {
		return b.Prefix.Addr().String()
	}
	return b.Prefix.String()
}

// CIDR returns the prefix in CIDR notation, "/32" or "/128" included.
func (b Block) CIDR() string { return b.Prefix.String() }

// Counts returns the counts per kind of its entries, added up.
func (b Block) Counts() [NumKinds]int64 {
	var c [NumKinds]int64
	for _, e := range b.Entries {
		for k, n := range e.Counts {
			c[k] += n
		}
	}
	return c
}

// Claims returns the distinct claims of its entries, in order of first
// appearance.
func (b Block) Claims() []Claim {
	var out []Claim
	for _, e := range b.Entries {
	next:
		for _, c := range e.Claims {
			for _, o := range out {
				if o == c {
					continue next
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// FirstSeen returns the earliest first request of its entries.
func (b Block) FirstSeen() time.Time {
	var t time.Time
	for _, e := range b.Entries {
		if t.IsZero() || e.FirstSeen.Before(t) {
			t = e.FirstSeen
		}
	}
	return t
}

// LastSeen returns the latest last request of its entries.
func (b Block) LastSeen() time.Time {
	var t time.Time
	for _, e := range b.Entries {
		if e.LastSeen.After(t) {
			t = e.LastSeen
		}
	}
	return t
}

// MaxReason is the longest Reason in bytes: under nftables' 128-byte
// comment limit, iptables' 256 and ipset's 255.
const MaxReason = 120

// Reason says why b is on the list, for a comment or a description:
// "disallowed 12, spoofed 12: Googlebot spoofed", with "3 addresses: " in
// front for a merged prefix. It is sanitized (Sanitize) and at most
// MaxReason bytes long.
func (b Block) Reason() string {
	var sb strings.Builder
	if n := len(b.Entries); n > 1 {
		fmt.Fprintf(&sb, "%d addresses: ", n)
	}
	sb.WriteString(CountsText(b.Counts()))
	if cl := b.Claims(); len(cl) > 0 {
		sb.WriteString(": ")
		for i, c := range cl {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(c.Bot)
			if c.Identity != "" {
				sb.WriteByte(' ')
				sb.WriteString(c.IdentityText())
			}
		}
	}
	return Sanitize(sb.String(), MaxReason)
}

// CountsText writes the non-zero counts as "disallowed 12, spoofed 3".
func CountsText(c [NumKinds]int64) string {
	var parts []string
	for k, n := range c {
		if n > 0 {
			parts = append(parts, kindNames[k]+" "+strconv.FormatInt(n, 10))
		}
	}
	return strings.Join(parts, ", ")
}

// Sanitize returns s restricted to an alphabet that is inert in every
// format this package writes: ASCII letters and digits, space and
// ". , : ; ( ) / _ - +". Any other character (quotes, backslashes, '#', '$',
// '{', '}', control characters, non-ASCII, an invalid byte) becomes '_'; runs of spaces
// become one; a leading '-' or '+' (a formula or an option to a
// spreadsheet or a shell) is dropped; the result is cut to max bytes (when
// max > 0), ending in "..." when cut.
func Sanitize(s string, max int) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		c := byte('_')
		if r < 0x80 {
			c = byte(r)
		}
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == ' ':
			if len(b) == 0 || b[len(b)-1] == ' ' {
				continue
			}
		case strings.IndexByte(".,:;()/_-+", c) >= 0:
			if len(b) == 0 && (c == '-' || c == '+') {
				continue
			}
		default:
			c = '_'
		}
		b = append(b, c)
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	if max > 0 && len(b) > max {
		cut := max - 3
		if cut < 0 {
			cut = 0
		}
		b = append(b[:cut], "..."[:min(3, max)]...)
	}
	return string(b)
}

// Meta says how a list was made; every format writes it in its header
// where its syntax has room for comments.
type Meta struct {
	// Tool names the program and its version ("crawlaudit v1.2.0").
	Tool string
	// Made is when the list was written.
	Made time.Time
	// From and To are the first and last request time of the logs (zero
	// when unknown).
	From, To time.Time
	// Logs are the log files read.
	Logs []string
	// Robots is the robots.txt source and Spec the semantics profile.
	Robots, Spec string
	// Kinds are the kinds of --block-on, Min the --block-min threshold.
	Kinds []Kind
	Min   int
	// Verified: addresses verified as their crawler's operator's may be
	// listed (--block-verified).
	Verified bool
	// AllowList is the --allow-list file ("" when none).
	AllowList string
	// Aggregate is the widest prefix per family (--block-aggregate).
	Aggregate Widest
	// TTL is how long a firewall should keep an entry (--block-ttl).
	TTL time.Duration
	// Predating counts the listed addresses with a claim that predates its
	// operator's range lists (Claim.Predates).
	Predating int
}

// Lines returns the header lines: plain, sanitized text, one fact per line,
// without comment markers.
func (m Meta) Lines(l *List) []string {
	kinds := make([]string, len(m.Kinds))
	for i, k := range m.Kinds {
		kinds[i] = k.String()
	}
	lines := []string{
		fmt.Sprintf("crawlaudit block list: %d addresses in %d entries", len(l.Entries), len(l.Blocks)),
		fmt.Sprintf("made by %s at %s", nonEmpty(m.Tool, "crawlaudit"), m.Made.UTC().Format(time.RFC3339)),
	}
	if !m.From.IsZero() || !m.To.IsZero() {
		lines = append(lines, fmt.Sprintf("logs from %s to %s", m.From.UTC().Format(time.RFC3339), m.To.UTC().Format(time.RFC3339)))
	}
	if len(m.Logs) > 0 {
		logs := strings.Join(m.Logs, ", ")
		lines = append(lines, "log files: "+logs)
	}
	if m.Robots != "" {
		lines = append(lines, fmt.Sprintf("robots.txt: %s (profile %s)", m.Robots, nonEmpty(m.Spec, "rfc9309")))
	}
	lines = append(lines, fmt.Sprintf("qualifies: at least %d request(s) of a kind in --block-on %s", max(m.Min, 1), strings.Join(kinds, ",")))
	if m.Verified {
		lines = append(lines, "verified addresses may be listed (--block-verified): the real crawlers of their operators")
	} else {
		lines = append(lines, "never a verified address, one the operator of its crawler publishes (--block-verified to allow)")
	}
	if m.AllowList != "" {
		lines = append(lines, "never an address in the allow list "+m.AllowList)
	}
	if m.Predating > 0 {
		lines = append(lines, fmt.Sprintf("unverified: %d addresses claimed a crawler whose operator publishes ranges, but the logs predate those lists; listed for what they did, not as impostors", m.Predating))
	}
	lines = append(lines, "aggregation: "+m.Aggregate.String())
	if m.TTL > 0 {
		lines = append(lines, "entries expire after "+m.TTL.String()+" (--block-ttl)")
	}
	for i, s := range lines {
		lines[i] = Sanitize(s, 0)
	}
	return lines
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// List is a block list ready to write: the qualifying addresses and the
// prefixes that cover them.
type List struct {
	// Entries are the qualifying addresses, sorted, IPv4 before IPv6, each
	// once.
	Entries []Entry
	// Blocks are the prefixes to block, sorted, IPv4 before IPv6; together
	// they cover every entry and no address Build was told must stay
	// reachable.
	Blocks []Block
	// Meta says how the list was made.
	Meta Meta

	// reach are the addresses that must stay reachable (Build's Options).
	reach rangeSet
}

// Reachable reports whether p holds an address that must stay reachable:
// one seen in the logs that does not qualify, an allowed one (Options of
// Build), or one never blocked (loopback, multicast, ...). A format that
// must widen a block (Cloudflare's IPv6 /64) asks it before it does.
func (l *List) Reachable(p netip.Prefix) bool {
	return l.reach.overlaps(netipx.RangeOfPrefix(p.Masked()))
}

// Family returns the blocks of one address family: IPv4 (4) or IPv6 (6).
func (l *List) Family(f int) []Block {
	i := 0
	for i < len(l.Blocks) && l.Blocks[i].Prefix.Addr().Is4() {
		i++
	}
	if f == 4 {
		return l.Blocks[:i]
	}
	return l.Blocks[i:]
}

// Format is one --block-format: the files it writes into --out.
type Format struct {
	// Name is its --block-format name.
	Name string
	// Files are the files it writes, each by a pure function of the list.
	Files []File
}

// File is one file of a Format.
type File struct {
	// Name is the file's name in --out (blocklist.nft).
	Name string
	// Write writes the list in the format to w. It returns an error,
	// writing nothing useful, when the list exceeds a limit of the format
	// (AWS WAF's 10,000 addresses per IP set).
	Write func(w io.Writer, l *List) error
}
