package rdns

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"io/fs"
	"net/netip"
	"os"
	"slices"
	"sync"
)

// MaxLineLen is the longest line [LoadCache] reads (1 MiB); an answer is a
// few hundred bytes.
const MaxLineLen = 1 << 20

// ErrSyntax is what a [ParseError] unwraps to when a cache line is not a
// valid answer.
var ErrSyntax = errors.New("not an answer")

// ParseError is a line of a cache file that [LoadCache] cannot read.
type ParseError struct {
	Path string // the cache file
	Line int    // 1-based
	Err  error  // wraps ErrSyntax, or is the reader's error
}

// Error reads "path:line: cannot parse rdns cache line: …".
func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: cannot parse rdns cache line: %v", e.Path, e.Line, e.Err)
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// Cache is the --rdns-cache FILE: JSON lines, one [Answer] per line (its
// JSON form), read back by later audits so that an audit with a cache makes
// no DNS query. It holds one answer per address, the last put. A Cache is
// safe for concurrent use.
type Cache struct {
	path    string
	mu      sync.Mutex
	answers map[netip.Addr]Answer
	dirty   bool
}

// LoadCache reads the cache file at path. A missing file is an empty cache
// (written by the first [Cache.Save] that has something to write); path ""
// is an empty cache kept in memory only. Blank lines are skipped; when an
// address appears on several lines the last one wins. A malformed line is
// a *[ParseError] naming file:line.
func LoadCache(path string) (*Cache, error) {
	c := &Cache{path: path, answers: make(map[netip.Addr]Answer)}
	if path == "" {
		return c, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot open rdns cache: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineLen)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		a, err := decodeLine(b)
		if err != nil {
			return nil, &ParseError{Path: path, Line: line, Err: err}
		}
		c.answers[a.Addr] = a
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{Path: path, Line: line + 1, Err: err}
	}
	return c, nil
}

// decodeLine decodes one cache line into a normalized answer.
func decodeLine(b []byte) (Answer, error) {
	var a Answer
	if err := json.Unmarshal(b, &a); err != nil {
		return Answer{}, fmt.Errorf("%w: %w", ErrSyntax, err)
	}
	if !a.Addr.IsValid() {
		return Answer{}, fmt.Errorf("%w: no \"addr\"", ErrSyntax)
	}
	if a.Addr.Zone() != "" {
		return Answer{}, fmt.Errorf("%w: address %q has a zone", ErrSyntax, a.Addr)
	}
	a.normalize()
	if _, err := json.Marshal(a); err != nil {
		// A time outside years 0–9999 once in UTC, say: Save could not
		// write it back.
		return Answer{}, fmt.Errorf("%w: %w", ErrSyntax, err)
	}
	return a, nil
}

// encodeLine appends the JSON line of a (with its newline) to buf.
func encodeLine(buf []byte, a Answer) ([]byte, error) {
	b, err := json.Marshal(a)
	if err != nil {
		return buf, err
	}
	buf = append(buf, b...)
	return append(buf, '\n'), nil
}

// Get returns the cached answer for addr (IPv4-mapped addresses are
// unmapped), whether usable or a failure.
func (c *Cache) Get(addr netip.Addr) (Answer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.answers[addr.Unmap()]
	return a, ok
}

// Put keeps a, normalized (address unmapped, names in lower case, time in
// UTC), in place of any answer for the same address. An answer without a
// valid address is ignored.
func (c *Cache) Put(a Answer) {
	a.normalize()
	if !a.Addr.IsValid() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.answers[a.Addr]; ok && old.equal(a) {
		return
	}
	c.answers[a.Addr] = a
	c.dirty = true
}

// Len returns the number of cached addresses.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.answers)
}

// Save writes the cache to its file, one line per address sorted by
// address, atomically: it writes a temporary file in the same directory and
// renames it over the file, so a reader sees the old file or the new one,
// never a part, and no temporary file is left behind. It does nothing when
// no answer changed since [LoadCache] or the last Save, or when the path is
// "".
func (c *Cache) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.path == "" || !c.dirty {
		return nil
	}
	addrs := make([]netip.Addr, 0, len(c.answers))
	for addr := range c.answers {
		addrs = append(addrs, addr)
	}
	slices.SortFunc(addrs, netip.Addr.Compare)
	var buf []byte
	for _, addr := range addrs {
		var err error
		if buf, err = encodeLine(buf, c.answers[addr]); err != nil {
			return fmt.Errorf("cannot encode rdns answer for %s: %w", addr, err)
		}
	}
	if err := atomicfile.WriteFile(c.path, buf); err != nil {
		return fmt.Errorf("cannot save rdns cache: %w", err)
	}
	c.dirty = false
	return nil
}
