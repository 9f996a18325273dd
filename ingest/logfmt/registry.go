// # Formats
//
// The built-in formats, by the name given to --format, in detection
// tie-break order (most specific first; see Formats):
//
//   - cloudfront, w3c, alb, jsonl: see their files.
//   - haproxy: HAProxy's default HTTP log (option httplog), with or without a
//     syslog prefix; user agent, referer and host come from captured request
//     headers when they are logged.
//   - traefik: Traefik's CLF access log: combined plus request count, router,
//     server URL and duration in ms.
//   - vhost_combined: Apache's "%v:%p %h %l %u %t \"%r\" %>s %O
//     \"%{Referer}i\" \"%{User-Agent}i\"", port optional; extra trailing fields
//     allowed.
//   - combined: Apache/nginx combined; extra trailing fields allowed.
//   - common: the Common Log Format; extra trailing fields allowed.
//
// NewCustom compiles any Apache LogFormat or nginx log_format layout into a
// format named "custom" for --log-format; it takes no part in detection.
//
// Decisions shared by the CLF family (common, combined, vhost_combined,
// traefik, custom): logger escapes (\" \\ \xHH ...) are undone in string
// fields; "-" is an absent field, except that Apache's %b "-" means zero
// bytes; request lines without a method and a target ("-", TLS handshakes
// and other junk that scanners send, usually with status 400) are rejected
// as ErrBadRequestLine, since no robots.txt rule can apply to them and the
// count stays visible; a line cut inside a quoted field (the request, the
// referer, the user agent or a quoted trailing field left without its
// closing quote: a log rotated or a disk filled mid-write, a syslog relay's
// length limit) is ErrTruncatedLine, never a request, while a line cut
// between two fields is ErrFieldCount (in a common file, a combined line cut
// after its bytes is a common line); a rejected line without any
// "[dd/Mon/yyyy:" time is ErrNotThisFormat (an error log line, JSON) rather
// than a damaged line of the format.
package logfmt

import (
	"slices"
	"sync"
)

// detectionOrder ranks the built-in formats for automatic detection, most
// specific first: when two formats parse the same number of sniffed lines,
// the one ranked earlier wins. A format whose lines would also be accepted by
// another (a Traefik CLF line is a combined line with extra trailing fields;
// a combined line is a common line with extra trailing fields) must come
// before it. Formats that register under a name not listed here rank after
// all listed ones, in name order.
var detectionOrder = []string{
	"cloudfront",
	"w3c",
	"alb",
	"jsonl",
	"haproxy",
	"traefik",
	"vhost_combined",
	"combined",
	"common",
}

var registry struct {
	mu      sync.Mutex
	formats []Format
	sorted  bool
}

// register adds a built-in format. Each parser file calls it from init. It
// panics on an empty or duplicate name or a nil New: both are programming
// errors caught by any test of the package.
func register(f Format) {
	if f.Name == "" || f.New == nil {
		panic("logfmt: register: format without a name or a constructor")
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	for _, g := range registry.formats {
		if g.Name == f.Name {
			panic("logfmt: register: duplicate format " + f.Name)
		}
	}
	registry.formats = append(registry.formats, f)
	registry.sorted = false
}

func rank(name string) int {
	if i := slices.Index(detectionOrder, name); i >= 0 {
		return i
	}
	return len(detectionOrder)
}

// Formats returns every built-in format in detection tie-break order, most
// specific first (see the package doc for the names). The returned slice is a
// copy that the caller may modify.
func Formats() []Format {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if !registry.sorted {
		slices.SortStableFunc(registry.formats, func(a, b Format) int {
			if ra, rb := rank(a.Name), rank(b.Name); ra != rb {
				return ra - rb
			}
			if a.Name < b.Name {
				return -1
			}
			if a.Name > b.Name {
				return 1
			}
			return 0
		})
		registry.sorted = true
	}
	return slices.Clone(registry.formats)
}

// Lookup returns the built-in format with the given name, as given to
// --format.
func Lookup(name string) (Format, bool) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	for _, f := range registry.formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}
