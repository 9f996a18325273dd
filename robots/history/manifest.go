package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ManifestName is the file beside the version files that tells where each
// version came from (crawlaudit history fetch writes it); Load reads the
// not_before of each version from it.
const ManifestName = "versions.json"

// Manifest is the content of versions.json: the versions of one host
// rebuilt from the web archive's captures of its robots.txt, and the
// captures that made no version.
type Manifest struct {
	// Host is the host the captures were listed for.
	Host string `json:"host"`
	// Archive is the archive's base URL; From and To the period asked for
	// (RFC 3339, empty when open).
	Archive string `json:"archive"`
	From    string `json:"from,omitempty"`
	To      string `json:"to,omitempty"`
	// Versions are in time order, one per version file.
	Versions []ManifestVersion `json:"versions"`
	// Unversioned are the captures listed but making no version: redirects,
	// server errors, and any other status.
	Unversioned []ManifestCapture `json:"unversioned"`
	// LiveChecks are the reads of the site's own robots.txt (history fetch
	// --live), kept so that a later run rebuilds the versions they made.
	LiveChecks []ManifestLiveCheck `json:"live_checks,omitempty"`
}

// ManifestLiveCheck is one read of the site's own robots.txt.
type ManifestLiveCheck struct {
	Time time.Time `json:"time"`
	URL  string    `json:"url"`
	// Status is the HTTP status read (404 for more than five redirects,
	// which RFC 9309 §2.3.1.2 lets a crawler take as unavailable).
	Status int `json:"status"`
	// Digest is the body's SHA-1 in base 32 (as the archive's digests),
	// Bytes its length; both zero for a status other than 2xx.
	Digest string `json:"digest,omitempty"`
	Bytes  int    `json:"bytes"`
}

// ManifestVersion is one version of versions.json.
type ManifestVersion struct {
	// File is the version file's name in the directory, named by FirstSeen.
	File string `json:"file"`
	// FirstSeen is the version's first capture; LastSeen its last.
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	// NotBefore is the last capture of the version before it: the earliest
	// instant this one can have gone live. Nil for the first version.
	NotBefore *time.Time `json:"not_before"`
	// Status is the HTTP status of the first capture: 200, or a 4xx (no
	// robots.txt: an empty version that allows everything).
	Status int `json:"status"`
	// Digest is the archive's digest of the first capture (base 32 SHA-1 of
	// the body); Bytes the length of the file.
	Digest string `json:"digest"`
	Bytes  int    `json:"bytes"`
	// Capture is the URL the body was read from; Captures the number of
	// captures that showed this version.
	Capture  string `json:"capture"`
	Captures int    `json:"captures"`
	// Live marks a version read from the site itself (history fetch --live)
	// rather than from the archive.
	Live bool `json:"live,omitempty"`
}

// ManifestCapture is one capture of versions.json that made no version.
type ManifestCapture struct {
	Time     time.Time `json:"time"`
	Status   string    `json:"status"`
	Original string    `json:"original"`
	Digest   string    `json:"digest"`
	// Reason says why it made no version.
	Reason string `json:"reason"`
}

// ReadManifest reads the versions.json in dir; ok is false when there is
// none. An unreadable or malformed file is an error naming it (and the line,
// for a syntax error). Unknown fields are ignored, so that a file written by
// a later version still loads.
func ReadManifest(dir string) (m *Manifest, ok bool, err error) {
	p := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("robots history: %w", err)
	}
	m = new(Manifest)
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(m); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		line := 0
		switch {
		case errors.As(err, &se):
			line = lineOf(b, se.Offset)
		case errors.As(err, &te):
			line = lineOf(b, te.Offset)
		}
		if line > 0 {
			return nil, false, fmt.Errorf("robots history %s:%d: not a versions.json of crawlaudit history fetch: %v; fetch the history again or remove the file", p, line, err)
		}
		return nil, false, fmt.Errorf("robots history %s: not a versions.json of crawlaudit history fetch: %v; fetch the history again or remove the file", p, err)
	}
	return m, true, nil
}

// lineOf returns the 1-based line of byte offset off in b.
func lineOf(b []byte, off int64) int {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	return bytes.Count(b[:off], []byte("\n")) + 1
}
