package history

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"
)

// MaxVersionBytes is the largest robots.txt version kept in full; longer ones
// are truncated to this size with a warning.
const MaxVersionBytes = 16 << 20

// Version is one robots.txt version.
type Version struct {
	// ID is the index of the version in History.All: versions are numbered
	// from 0, grouped by host (in the order of Hosts) and sorted by Start
	// within a host. The audit keeps one compiled robots.txt per ID.
	ID int
	// Host is the normalised host the version belongs to; "" when SRC names
	// no host and Options.Host was empty.
	Host string
	// Start is the UTC instant the version went live; the zero time for a
	// single file, in effect for all time.
	Start time.Time
	// Name identifies the version in reports and errors: the file path, or
	// "COMMIT:PATH" for a git history.
	Name string
	// Data is the content of the version. It is empty for a deletion.
	Data []byte
	// NotBefore is the earliest instant the version can have gone live,
	// when a versions.json beside the file gives one (crawlaudit history
	// fetch: the last capture of the version before); the zero time
	// otherwise. Between NotBefore and Start the version in effect is
	// uncertain.
	NotBefore time.Time
	// Deleted reports that PATH was deleted in this commit (git only): no
	// robots.txt, which allows everything.
	Deleted bool
}

// Options adjusts Load.
type Options struct {
	// Host is --host: the host of log lines that carry none, and the host of
	// a SRC that names none (a file, a flat directory, a git history). Empty
	// by default.
	Host string
}

// hostHistory is the versions of one host.
type hostHistory struct {
	name   string
	first  int     // ID of the first version
	starts []int64 // Start of each version, in Unix microseconds
}

// History is a loaded robots.txt history. It is immutable after Load and
// safe for concurrent use.
type History struct {
	src      string
	all      []Version
	hosts    []hostHistory // sorted by name
	byName   map[string]int
	dflt     int  // host index for log lines without a host; -1 when none
	anyHost  bool // one unnamed history that applies to every host
	named    bool // the hosts come from SRC (a directory per host)
	warnings []string
}

// Load reads the robots.txt history named by src (see the package comment
// for the forms of src and how hosts are matched). Errors name the file, or
// the commit for a git history.
func Load(src string, opt Options) (*History, error) {
	var (
		vs    []Version
		warns []string
		named bool
		err   error
	)
	switch {
	case strings.HasPrefix(src, "git:"):
		vs, warns, err = loadGit(src)
	case src == "":
		return nil, errors.New("robots history: empty source")
	default:
		var fi os.FileInfo
		fi, err = os.Stat(src)
		if err != nil {
			return nil, fmt.Errorf("robots history: %w", err)
		}
		switch {
		case fi.Mode().IsRegular():
			var v Version
			v, warns, err = readVersion(src, time.Time{})
			vs = []Version{v}
		case fi.IsDir():
			vs, warns, named, err = loadDir(src)
		default:
			err = fmt.Errorf("robots history %s: not a regular file or directory (%s)", src, fi.Mode().Type())
		}
	}
	if err != nil {
		return nil, err
	}
	return build(src, vs, warns, named, opt)
}

// FromBytes returns the history of one version, in effect for all time, as
// Load returns for a file; name identifies it in reports (for example "-"
// for standard input).
func FromBytes(name string, data []byte, opt Options) (*History, error) {
	return build(name, []Version{{Name: name, Data: data}}, nil, false, opt)
}

// build numbers the versions, indexes the hosts and applies opt.
func build(src string, vs []Version, warns []string, named bool, opt Options) (*History, error) {
	h := &History{src: src, warnings: warns, byName: make(map[string]int), dflt: -1, named: named}
	want := ""
	if opt.Host != "" {
		want = NormalizeHost(opt.Host)
		if want == "" {
			return nil, fmt.Errorf("robots history %s: invalid --host %q", src, opt.Host)
		}
	}
	if !named {
		for i := range vs {
			vs[i].Host = want
		}
		h.anyHost = want == ""
	}
	sort.SliceStable(vs, func(i, j int) bool {
		if vs[i].Host != vs[j].Host {
			return vs[i].Host < vs[j].Host
		}
		return vs[i].Start.Before(vs[j].Start)
	})
	for i := range vs {
		vs[i].ID = i
		if len(h.hosts) == 0 || h.hosts[len(h.hosts)-1].name != vs[i].Host {
			h.byName[vs[i].Host] = len(h.hosts)
			h.hosts = append(h.hosts, hostHistory{name: vs[i].Host, first: i})
		}
		hh := &h.hosts[len(h.hosts)-1]
		us := int64(math.MinInt64)
		if !vs[i].Start.IsZero() {
			us = vs[i].Start.UnixMicro()
		}
		if n := len(hh.starts); n > 0 && hh.starts[n-1] >= us {
			// Loaders reject or drop equal instants; this guards the invariant.
			return nil, fmt.Errorf("robots history %s: %s and %s start at the same instant", src, vs[i-1].Name, vs[i].Name)
		}
		hh.starts = append(hh.starts, us)
	}
	h.all = vs
	if len(h.hosts) == 0 {
		return nil, fmt.Errorf("robots history %s: no robots.txt versions", src)
	}
	switch {
	case want != "":
		i, ok := h.byName[want]
		if !ok {
			return nil, fmt.Errorf("robots history %s: --host %s is not one of its hosts (%s)", src, want, strings.Join(h.Hosts(), ", "))
		}
		h.dflt = i
	case len(h.hosts) == 1:
		h.dflt = 0
	}
	return h, nil
}

// Source returns the src the history was loaded from.
func (h *History) Source() string { return h.src }

// Warnings returns what Load skipped or changed without failing: skipped
// files, truncated versions, git versions never in effect. The slice must
// not be modified.
func (h *History) Warnings() []string { return h.warnings }

// AnyHost reports whether the history names no host and applies to every
// log line, whatever its host.
func (h *History) AnyHost() bool { return h.anyHost }

// Hosts returns the normalised host names, sorted. A history that names no
// host has the single host "".
func (h *History) Hosts() []string {
	out := make([]string, len(h.hosts))
	for i := range h.hosts {
		out[i] = h.hosts[i].name
	}
	return out
}

// NumHosts returns the number of hosts; host indices run from 0 to
// NumHosts()-1 in the order of Hosts.
func (h *History) NumHosts() int { return len(h.hosts) }

// HostName returns the name of the host with index hi.
func (h *History) HostName(hi int) string { return h.hosts[hi].name }

// All returns every version, indexed by ID. The slice and the Data it holds
// must not be modified.
func (h *History) All() []Version { return h.all }

// Version returns the version with the given ID.
func (h *History) Version(id int) Version { return h.all[id] }

// Versions returns the versions that judge a log line carrying host (see
// Lookup: for a history that names no host, those of every host), sorted by
// Start, or nil when none does. The slice must not be modified.
func (h *History) Versions(host string) []Version {
	hi, ok := h.Lookup(host)
	if !ok {
		return nil
	}
	hh := &h.hosts[hi]
	return h.all[hh.first : hh.first+len(hh.starts)]
}

// Lookup returns the index of the host whose history judges a log line
// carrying host ("" when the line carries none), following the rules of the
// package comment; ok is false when no history applies (the line is
// unaudited). It does not allocate when host is already normalised; call it
// once per distinct host, not per row.
func (h *History) Lookup(host string) (hi int, ok bool) {
	if h.anyHost {
		return 0, true
	}
	n := NormalizeHost(host)
	if n == "" {
		return h.dflt, h.dflt >= 0
	}
	hi, ok = h.byName[n]
	return hi, ok
}

// At returns the ID of the version in effect on host at t — the newest with
// Start <= t — and ok=false when there is none: t is before the first
// version, or no history applies to host (unaudited).
func (h *History) At(host string, t time.Time) (id int, ok bool) {
	hi, ok := h.Lookup(host)
	if !ok {
		return -1, false
	}
	return h.AtMicros(hi, t.UnixMicro())
}

// AtMicros is At for the host with index hi (from Lookup) and a time in Unix
// microseconds, the unit of the ingest schema's timestamp column. It runs a
// binary search and does not allocate. For rows roughly in time order, a
// Cursor is faster.
func (h *History) AtMicros(hi int, us int64) (id int, ok bool) {
	hh := &h.hosts[hi]
	i := upperBound(hh.starts, us)
	if i == 0 {
		return -1, false
	}
	return hh.first + i - 1, true
}

// upperBound returns the number of starts <= us.
func upperBound(starts []int64, us int64) int {
	lo, hi := 0, len(starts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if starts[m] <= us {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Cursor answers AtMicros for one host, remembering the interval of the
// last answer: a time inside it is answered in constant time, any other by a
// binary search. A Cursor is not safe for concurrent use; make one per
// goroutine.
type Cursor struct {
	h      *hostHistory
	lo, hi int64 // the last answer holds for lo <= us < hi
	id     int   // the last answer; -1 for "before the first version"
	valid  bool
}

// VersionIDs returns the IDs of the versions of the host with index hi
// (from Lookup): first up to, not including, end.
func (h *History) VersionIDs(hi int) (first, end int) {
	hh := &h.hosts[hi]
	return hh.first, hh.first + len(hh.starts)
}

// Cursor returns a Cursor for the host with index hi (from Lookup).
func (h *History) Cursor(hi int) Cursor { return Cursor{h: &h.hosts[hi]} }

// At returns what History.AtMicros returns for the cursor's host and us.
func (c *Cursor) At(us int64) (id int, ok bool) {
	if c.valid && us >= c.lo && us < c.hi {
		return c.id, c.id >= 0
	}
	hh := c.h
	i := upperBound(hh.starts, us)
	c.valid = true
	if i == 0 {
		c.lo, c.hi, c.id = math.MinInt64, hh.starts[0], -1
		return -1, false
	}
	c.lo, c.id = hh.starts[i-1], hh.first+i-1
	if i < len(hh.starts) {
		c.hi = hh.starts[i]
	} else {
		c.hi = math.MaxInt64
	}
	return c.id, true
}

// NormalizeHost returns host in the form histories compare: surrounding
// white space trimmed, a port removed (":8080"; a bare IPv6 address keeps
// its colons), the brackets of an IPv6 literal removed, trailing dots
// removed, ASCII letters lowercased. It returns host itself, without
// allocating, when that is already normal.
func NormalizeHost(host string) string {
	// Repeat until nothing changes, so that NormalizeHost(NormalizeHost(x))
	// == NormalizeHost(x) even for garbage such as "[a:b]:c" or "x. .". A
	// name longer than a DNS name can be is normalised once only, to keep
	// hostile input ("[[[[...]]]]") linear; it matches no history anyway.
	if len(host) > maxHostLen {
		return normalizeOnce(host)
	}
	for {
		n := normalizeOnce(host)
		if n == host {
			return n
		}
		host = n
	}
}

// maxHostLen bounds the host names NormalizeHost normalises fully: longer
// than any DNS name (253 bytes) plus a port and brackets.
const maxHostLen = 300

func normalizeOnce(host string) string {
	s := strings.TrimSpace(host)
	if strings.HasPrefix(s, "[") {
		if end := strings.IndexByte(s, ']'); end > 0 {
			s = s[1:end]
		}
	} else if i := strings.IndexByte(s, ':'); i >= 0 && strings.IndexByte(s[i+1:], ':') < 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, ".")
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			return toLowerASCII(s)
		}
	}
	return s
}

func toLowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
