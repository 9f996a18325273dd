// Command keysnap writes the built-in snapshot of signers' key directories
// (webbotauth/snapshot.json) from a directory in the --keys layout
// (DIR/<signer host>/<RFC 3339 instant>.json, as `crawlaudit keys update`
// writes it) and its provenance.json, which says where each file that was
// not fetched from its signer comes from.
//
//	go run ./internal/keysnap -in internal/keysnap/input -o snapshot.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/webbotauth"
)

type provenance struct {
	Files []struct {
		File    string `json:"file"`
		Source  string `json:"source"`
		Via     string `json:"via"`
		Instant string `json:"instant"`
	} `json:"files"`
}

func main() {
	in := flag.String("in", "internal/keysnap/input", "directory in the --keys layout, with a provenance.json")
	out := flag.String("o", "snapshot.json", "snapshot file to write")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "keysnap:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	var prov provenance
	if b, err := os.ReadFile(filepath.Join(in, "provenance.json")); err == nil {
		if err := json.Unmarshal(b, &prov); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(in, "provenance.json"), err)
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	snap := webbotauth.SnapshotFile{
		Format:    webbotauth.SnapshotFormat,
		Generator: "go run ./internal/keysnap -in " + filepath.ToSlash(in) + " -o " + filepath.ToSlash(out),
	}
	hosts, err := os.ReadDir(in)
	if err != nil {
		return err
	}
	for _, h := range hosts {
		if !h.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(in, h.Name()))
		if err != nil {
			return err
		}
		s := webbotauth.SnapshotSigner{Host: h.Name()}
		for _, f := range files {
			if !strings.HasSuffix(f.Name(), ".json") {
				continue
			}
			at, err := time.Parse(time.RFC3339, strings.TrimSuffix(f.Name(), ".json"))
			if err != nil {
				return fmt.Errorf("%s/%s: the name is not an RFC 3339 instant", h.Name(), f.Name())
			}
			body, err := os.ReadFile(filepath.Join(in, h.Name(), f.Name()))
			if err != nil {
				return err
			}
			if _, err := webbotauth.ParseJWKS(body); err != nil {
				return fmt.Errorf("%s/%s: %w", h.Name(), f.Name(), err)
			}
			var compact json.RawMessage
			if err := json.Unmarshal(body, &compact); err != nil {
				return err
			}
			v := webbotauth.SnapshotVersion{At: at.UTC(), Source: "https://" + h.Name() + webbotauth.DirectoryPath, JWKS: compact}
			rel := h.Name() + "/" + f.Name()
			for _, p := range prov.Files {
				if p.File == rel {
					v.Source, v.Via, v.Instant = p.Source, p.Via, p.Instant
				}
			}
			s.Versions = append(s.Versions, v)
			if at.After(snap.Made) {
				snap.Made = at.UTC()
			}
		}
		slices.SortFunc(s.Versions, func(a, b webbotauth.SnapshotVersion) int { return a.At.Compare(b.At) })
		if len(s.Versions) > 0 {
			snap.Signers = append(snap.Signers, s)
		}
	}
	b, err := json.MarshalIndent(snap, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}
