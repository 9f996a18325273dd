package webbotauth

import (
	"crypto"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Keys holds dated snapshots of signers' key directories: for each signer
// host, the JWKS it served at each instant known. A key is known at time t
// when the newest snapshot of its signer at or before t, or the first one
// after t, holds it: keys rotate, and snapshots are taken now and then, so
// a key added between two snapshots shows only in the later one.
type Keys struct {
	signers map[string]*signerKeys
}

type signerKeys struct {
	host     string
	versions []keyVersion // by instant
}

// keyVersion is one snapshot of a directory.
type keyVersion struct {
	at     time.Time
	source string // where it was read: a URL, a file, a document
	keys   map[string]*key
}

// key is one usable key of a directory, by its RFC 7638 thumbprint.
type key struct {
	jwk   JWK
	thumb string
	pub   crypto.PublicKey
}

// KeyNote tells of a directory file or key that could not be used.
type KeyNote struct {
	File   string
	Reason string
}

// NewKeys returns an empty Keys.
func NewKeys() *Keys { return &Keys{signers: map[string]*signerKeys{}} }

// Add adds the directory set served by the signer at host at instant at,
// read from source. It returns a note for each key it cannot use (an
// unsupported type, a bad encoding); the others are added.
func (k *Keys) Add(host string, at time.Time, source string, set JWKS) []KeyNote {
	host = strings.ToLower(host)
	s := k.signers[host]
	if s == nil {
		s = &signerKeys{host: host}
		k.signers[host] = s
	}
	v := keyVersion{at: at.UTC(), source: source, keys: map[string]*key{}}
	var notes []KeyNote
	for i, j := range set.Keys {
		pub, err := j.Public()
		if err != nil {
			notes = append(notes, KeyNote{File: source, Reason: fmt.Sprintf("key %d: %v", i+1, err)})
			continue
		}
		t, err := j.Thumbprint()
		if err != nil {
			notes = append(notes, KeyNote{File: source, Reason: fmt.Sprintf("key %d: %v", i+1, err)})
			continue
		}
		v.keys[t] = &key{jwk: j, thumb: t, pub: pub}
	}
	i, found := slices.BinarySearchFunc(s.versions, v.at, func(a keyVersion, t time.Time) int { return a.at.Compare(t) })
	if found {
		s.versions[i] = v
	} else {
		s.versions = slices.Insert(s.versions, i, v)
	}
	return notes
}

// Hosts returns the signer hosts, sorted.
func (k *Keys) Hosts() []string {
	out := make([]string, 0, len(k.signers))
	for h := range k.signers {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

// Versions returns the instants and sources of the snapshots of host.
func (k *Keys) Versions(host string) []KeyVersionInfo {
	s := k.signers[strings.ToLower(host)]
	if s == nil {
		return nil
	}
	out := make([]KeyVersionInfo, 0, len(s.versions))
	for _, v := range s.versions {
		out = append(out, KeyVersionInfo{At: v.at, Source: v.source, Keys: len(v.keys)})
	}
	return out
}

// KeyVersionInfo describes one snapshot of a signer's directory.
type KeyVersionInfo struct {
	At     time.Time `json:"at"`
	Source string    `json:"source"`
	Keys   int       `json:"keys"`
}

// Override returns Keys with the signers of over in place of those of k
// (the others of k stay), as --keys DIR adds or replaces signers.
func (k *Keys) Override(over *Keys) *Keys {
	out := NewKeys()
	for h, s := range k.signers {
		out.signers[h] = s
	}
	for h, s := range over.signers {
		out.signers[h] = s
	}
	return out
}

// around returns the snapshots of s that speak for time t: the newest at or
// before t, and the first after t (either may be nil). A key published in
// either was the signer's at t: the one before has not been replaced yet,
// the one after may have been added since it was fetched.
func (s *signerKeys) around(t time.Time) (before, after *keyVersion) {
	i, found := slices.BinarySearchFunc(s.versions, t, func(a keyVersion, t time.Time) int { return a.at.Compare(t) })
	if found {
		before = &s.versions[i]
		i++
	} else if i > 0 {
		before = &s.versions[i-1]
	}
	if i < len(s.versions) {
		after = &s.versions[i]
	}
	return before, after
}

// lookup finds keyid in host's directory as of t (see Keys). known reports
// whether any directory of host is known; v is the snapshot that holds the
// key, or the one in effect at t when none does.
func (k *Keys) lookup(host, keyid string, t time.Time) (kk *key, v *keyVersion, known bool) {
	s := k.signers[host]
	if s == nil || len(s.versions) == 0 {
		return nil, nil, s != nil
	}
	before, after := s.around(t)
	for _, c := range []*keyVersion{before, after} {
		if c != nil && c.keys[keyid] != nil {
			return c.keys[keyid], c, true
		}
	}
	if before != nil {
		return nil, before, true
	}
	return nil, after, true
}

// lookupAny finds keyid in any signer's directory as of t, for a request
// without a Signature-Agent: thumbprints are unique to a key, so the key
// names its signer.
func (k *Keys) lookupAny(keyid string, t time.Time) (host string, kk *key, v *keyVersion) {
	for _, h := range k.Hosts() {
		if kk, v, _ := k.lookup(h, keyid, t); kk != nil {
			return h, kk, v
		}
	}
	return "", nil, nil
}

// LoadDir reads a --keys directory: DIR/<signer host>/<RFC 3339 instant>.json,
// each a JWKS as served. A file that is not a JWKS, or whose name is not an
// instant, is skipped with a note; only an unreadable DIR is an error.
func LoadDir(dir string) (*Keys, []KeyNote, error) {
	hosts, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read key directory %s: %w", dir, err)
	}
	k := NewKeys()
	var notes []KeyNote
	for _, h := range hosts {
		if !h.IsDir() || strings.HasPrefix(h.Name(), ".") {
			continue
		}
		files, err := os.ReadDir(filepath.Join(dir, h.Name()))
		if err != nil {
			notes = append(notes, KeyNote{File: filepath.Join(dir, h.Name()), Reason: err.Error()})
			continue
		}
		for _, f := range files {
			name := f.Name()
			path := filepath.Join(dir, h.Name(), name)
			if f.IsDir() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
				continue
			}
			at, err := time.Parse(time.RFC3339, strings.TrimSuffix(name, ".json"))
			if err != nil {
				notes = append(notes, KeyNote{File: path, Reason: "the file name is not an RFC 3339 instant (want e.g. 2026-11-01T00:00:00Z.json); skipped"})
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				notes = append(notes, KeyNote{File: path, Reason: err.Error()})
				continue
			}
			set, err := ParseJWKS(b)
			if err != nil {
				notes = append(notes, KeyNote{File: path, Reason: err.Error() + "; skipped"})
				continue
			}
			notes = append(notes, k.Add(h.Name(), at, path, set)...)
		}
	}
	return k, notes, nil
}
