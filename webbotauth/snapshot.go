package webbotauth

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
)

// The built-in snapshot of the known signers' key directories, written by
// the generator the project keeps from a directory in the --keys layout
// and the provenance of each file (see internal/keysnap).
//
//go:generate go run ./internal/keysnap -in internal/keysnap/input -o snapshot.json
//go:embed snapshot.json
var snapshotJSON []byte

//go:embed signers.json
var signersJSON []byte

// DirectoryPath is where a signer serves its key directory, under its
// origin (draft-meunier-http-message-signatures-directory §4).
const DirectoryPath = "/.well-known/http-message-signatures-directory"

// SnapshotFormat names the layout of snapshot.json.
const SnapshotFormat = "crawlaudit-keys-snapshot/1"

// SnapshotFile is the layout of snapshot.json.
type SnapshotFile struct {
	Format string `json:"format"`
	// Made is the newest instant in the snapshot.
	Made time.Time `json:"made"`
	// Generator is the command that wrote it.
	Generator string           `json:"generator"`
	Signers   []SnapshotSigner `json:"signers"`
}

// SnapshotSigner is one signer of the snapshot, by host.
type SnapshotSigner struct {
	Host     string            `json:"host"`
	Versions []SnapshotVersion `json:"versions"`
}

// SnapshotVersion is one dated copy of a signer's directory.
type SnapshotVersion struct {
	// At is the instant the directory is known to have held these keys.
	At time.Time `json:"at"`
	// Source is the directory's URL; Via, when the project did not fetch
	// it itself, the publication it was copied from; Instant why At is
	// what it is, when it is not the time of a fetch.
	Source  string          `json:"source"`
	Via     string          `json:"via,omitempty"`
	Instant string          `json:"instant,omitempty"`
	JWKS    json.RawMessage `json:"jwks"`
}

// Signer is one row of the signer table: who is behind a signer's origin,
// and the agent its valid signatures name.
type Signer struct {
	Origin   string `json:"origin"`
	Operator string `json:"operator"`
	Agent    string `json:"agent"`
	Source   string `json:"source"`
	Note     string `json:"note,omitempty"`
}

type builtin struct {
	keys    *Keys
	file    SnapshotFile
	signers []Signer
}

var loadBuiltin = sync.OnceValues(func() (*builtin, error) {
	var b builtin
	if err := json.Unmarshal(snapshotJSON, &b.file); err != nil {
		return nil, fmt.Errorf("webbotauth: built-in key snapshot: %w", err)
	}
	if b.file.Format != SnapshotFormat {
		return nil, fmt.Errorf("webbotauth: built-in key snapshot: format %q, want %q", b.file.Format, SnapshotFormat)
	}
	b.keys = NewKeys()
	for _, s := range b.file.Signers {
		for _, v := range s.Versions {
			set, err := ParseJWKS(v.JWKS)
			if err != nil {
				return nil, fmt.Errorf("webbotauth: built-in key snapshot: %s at %s: %w", s.Host, v.At.Format(time.RFC3339), err)
			}
			if notes := b.keys.Add(s.Host, v.At, v.Source, set); len(notes) > 0 {
				return nil, fmt.Errorf("webbotauth: built-in key snapshot: %s: %s", s.Host, notes[0].Reason)
			}
		}
	}
	var table struct {
		Signers []Signer `json:"signers"`
	}
	if err := json.Unmarshal(signersJSON, &table); err != nil {
		return nil, fmt.Errorf("webbotauth: signer table: %w", err)
	}
	b.signers = table.Signers
	return &b, nil
})

// Snapshot returns the keys of the built-in snapshot. The same *Keys is
// returned to every caller; it is not modified.
func Snapshot() (*Keys, error) {
	b, err := loadBuiltin()
	if err != nil {
		return nil, err
	}
	return b.keys, nil
}

// BuiltinSnapshot returns the built-in snapshot as written, with each
// version's source and date.
func BuiltinSnapshot() (SnapshotFile, error) {
	b, err := loadBuiltin()
	if err != nil {
		return SnapshotFile{}, err
	}
	return b.file, nil
}

// Signers returns the signer table.
func Signers() ([]Signer, error) {
	b, err := loadBuiltin()
	if err != nil {
		return nil, err
	}
	return b.signers, nil
}

// SignerFor returns the row of the signer table for an origin
// ("https://chatgpt.com"), as Result.Signer gives it.
func SignerFor(origin string) (Signer, bool) {
	b, err := loadBuiltin()
	if err != nil {
		return Signer{}, false
	}
	origin = strings.TrimSuffix(strings.ToLower(origin), "/")
	for _, s := range b.signers {
		if s.Origin == origin {
			return s, true
		}
	}
	return Signer{}, false
}
