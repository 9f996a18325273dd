// Package history loads the history of a site's robots.txt — every version
// with the instant it went live — and answers which version was in effect at
// a given time on a given host (contract §4). It does not parse robots.txt:
// the audit compiles each Version's Data with package robots, once, indexed
// by Version.ID.
//
// # Sources
//
// Load takes the --robots SRC of the audit command:
//
//   - A regular file: one version, in effect for all time (Version.Start is
//     the zero time).
//   - A directory of versions named by the UTC instant they went live:
//     2026-10-01T00:00:00Z.txt (RFC 3339; fractional seconds and a numeric
//     offset are accepted and converted to UTC), 2026-10-01.txt (midnight
//     UTC) or 20261001T000000Z.txt. The extension ".txt" is matched
//     case-insensitively.
//   - A directory with one subdirectory per host, each such a directory of
//     versions: DIR/example.com/2026-10-01T00:00:00Z.txt.
//   - git:REPO//PATH: every committed version of PATH in the git repository
//     REPO (a local work tree or bare repository), read with the git CLI.
//
// # Decisions
//
// Directory layout. A directory that holds version files (*.txt) is the flat
// layout; one that holds subdirectories is the per-host layout; one that
// holds both is an error naming one of each, and so is one that holds
// neither. In the per-host layout a host directory must hold version files
// only (a nested directory is an error). A *.txt file whose name is not one
// of the three instant forms is an error naming the file: it was surely meant
// as a version, and guessing its instant would judge requests by the wrong
// rules. Any other file (manifest.json, README.md, editor backups, dotfiles)
// and any hidden directory (.git) is skipped with a warning (Warnings). Two
// files naming the same instant for one host are an error naming both.
// Symbolic links are followed; a path that is not a regular file or
// directory (a FIFO, a device) is an error.
//
// Size. A version larger than MaxVersionBytes keeps its first MaxVersionBytes
// bytes, with a warning; robots.txt parsers read far less (RFC 9309 asks for
// at least 500 KiB), and the limit keeps a hostile SRC (a symbolic link to
// /dev/zero is refused anyway) from exhausting memory.
//
// Resolution. Instants are kept to the microsecond, the resolution of the
// log timestamps; finer digits in a file name are truncated.
//
// git. The versions are those of the first-parent history of HEAD (git log
// --first-parent --follow -- PATH): a change made on a branch goes live when
// it is merged, at the merge commit's time, which is when a deployment from
// the main branch would publish it. Renames of PATH are followed (as far as
// git's rename detection finds them); a commit that leaves the content as it
// was (a rename, a mode change) starts no new version. Each
// version is live from its committer date (not the author date: a rebased or
// cherry-picked commit is published when it is committed). A commit that
// deletes PATH starts a version with Deleted set and no Data: no robots.txt,
// which RFC 9309 §2.3.1.3 reads as "allow all" (an empty file compiles to
// exactly that). Committer clocks may be skewed: a version never starts
// before the one it replaces (its start is raised to its predecessor's), and
// of several versions with the same start only the newest is kept, with a
// warning (the others were never in effect). A submodule or symbolic link at
// PATH is an error naming the commit.
//
// Hosts. Host names are compared case-insensitively (ASCII), ignoring a port
// and trailing dots, with the brackets of an IPv6 literal removed (see
// NormalizeHost). "www.example.com" and "example.com" are different hosts:
// RFC 9309 §2.3 scopes a robots.txt to the host it is served from, and the
// two often serve different files. Internationalised names are compared as
// written (no IDNA mapping between "bücher.de" and "xn--bcher-kva.de").
//
// A file, a flat directory and a git history name no host. Without
// Options.Host such a history applies to every request, whatever host its
// log line carries (AnyHost reports this, so the audit can warn when the logs
// carry several hosts). With Options.Host it is the history of that host
// only: log lines without a host are judged by it, lines for another host are
// not in the history (Lookup answers false: unaudited).
//
// A per-host directory names its hosts. A log line carrying a host is judged
// by that host's history, or is unaudited when SRC has none for it. A log
// line carrying no host is judged by the history of Options.Host (which must
// be one of SRC's hosts), else by the only host of SRC when there is just
// one, else it is unaudited.
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
	h := &History{src: src, warnings: warns, byName: make(map[string]int), dflt: -1}
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
