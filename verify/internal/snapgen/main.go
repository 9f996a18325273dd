package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/verify"
)

func main() {
	data := flag.String("data", "../../shared/data/ip-ranges", "the directory of the mirrored range data")
	out := flag.String("o", "snapshot.json.gz", "the snapshot file to write")
	sources := flag.String("sources", "sources.json", "the table of sources")
	quiet := flag.Bool("q", false, "do not print the summary")
	flag.Parse()
	var log io.Writer = os.Stderr
	if *quiet {
		log = io.Discard
	}
	if err := run(*data, *sources, *out, log); err != nil {
		fmt.Fprintln(os.Stderr, "snapgen:", err)
		os.Exit(1)
	}
}

// The snapshot layout; verify/snapshot.go reads it.
type snapshotFile struct {
	Format    string                 `json:"format"`
	Made      time.Time              `json:"made"`
	Generator string                 `json:"generator"`
	Inputs    []verify.SnapshotInput `json:"inputs"`
	Sources   []snapshotSource       `json:"sources"`
}

type snapshotSource struct {
	Name     string            `json:"name"`
	Input    string            `json:"input"`
	Versions []snapshotVersion `json:"versions"`
}

type snapshotVersion struct {
	Created time.Time `json:"created"`
	Add     []string  `json:"add,omitempty"`
	Remove  []string  `json:"remove,omitempty"`
}

// tableEntry is what snapgen reads of an entry of sources.json.
type tableEntry struct {
	Name          string `json:"name"`
	Authoritative bool   `json:"authoritative"`
	GoogleHistory string `json:"google_history"`
	IPVerse       string `json:"ipverse"`
}

const (
	googleUpstream  = "aminvakil/google-ip-list, a daily mirror of developers.google.com (commit of each file in manifest.json)"
	ipverseUpstream = "ipverse/bot-ip-blocks crawlers.json (CC0-1.0), one file per commit (commits in ipverse-crawlers-history.manifest.json)"
	ipverseTarball  = "ipverse-crawlers-history.tar.gz"
	ipverseLatest   = "ipverse-crawlers.latest.json"
)

func run(dataDir, sourcesPath, out string, log io.Writer) error {
	raw, err := os.ReadFile(sourcesPath)
	if err != nil {
		return err
	}
	var tbl struct {
		Sources []tableEntry `json:"sources"`
	}
	if err := json.Unmarshal(raw, &tbl); err != nil {
		return fmt.Errorf("%s: %w", sourcesPath, err)
	}
	snap := snapshotFile{Format: verify.SnapshotFormat, Generator: "go run ./internal/snapgen (verify/internal/snapgen)"}
	var made time.Time
	note := func(t time.Time) {
		if t.After(made) {
			made = t
		}
	}

	// Google's own histories.
	for _, e := range tbl.Sources {
		if e.GoogleHistory == "" {
			continue
		}
		lists, inputs, err := readGoogle(dataDir, e.GoogleHistory)
		if err != nil {
			return err
		}
		snap.Inputs = append(snap.Inputs, inputs...)
		for _, l := range lists {
			note(l.Created)
		}
		snap.Sources = append(snap.Sources, encode(e.Name, inputs[0].Path, dedupe(lists)))
	}

	// ipverse, for the sources that name a service.
	services := make(map[string]string) // ipverse service -> source
	auth := make(map[string]bool)
	for _, e := range tbl.Sources {
		if e.IPVerse != "" && e.GoogleHistory == "" {
			services[e.IPVerse] = e.Name
			auth[e.Name] = e.Authoritative
		}
	}
	if len(services) > 0 {
		files, input, err := readTarball(filepath.Join(dataDir, ipverseTarball))
		if err != nil {
			return err
		}
		snap.Inputs = append(snap.Inputs, input)
		latest, err := os.ReadFile(filepath.Join(dataDir, ipverseLatest))
		if err != nil {
			return err
		}
		snap.Inputs = append(snap.Inputs, verify.SnapshotInput{Path: ipverseLatest, SHA256: digest(latest), Upstream: ipverseUpstream})
		// The latest file is dated like the newest history file.
		files = append(files, tarFile{name: ipverseLatest, time: files[len(files)-1].time, data: latest})
		lists := make(map[string][]*verify.List)
		emptied := make(map[string]bool) // the last list of the source was empty
		for _, f := range files {
			note(f.time)
			svcs, err := verify.ParseIPVerse(f.name, f.data, f.time)
			if err != nil {
				return err
			}
			for _, s := range svcs {
				src, ok := services[s.Name]
				if !ok {
					continue
				}
				if s.Authoritative != nil && *s.Authoritative != auth[src] {
					fmt.Fprintf(log, "snapgen: note: %s: ipverse says %s is authoritative=%v, sources.json says %v (sources.json wins)\n", f.name, s.Name, *s.Authoritative, auth[src])
				}
				prev := lists[src]
				if s.List.Len() == 0 {
					if len(prev) > 0 && !emptied[src] {
						fmt.Fprintf(log, "snapgen: note: %s: %s is empty, taken as a failed fetch by ipverse: the previous list stays in effect\n", f.name, s.Name)
					}
					emptied[src] = true
					continue
				}
				emptied[src] = false
				if n := len(prev); n > 0 {
					last := prev[n-1]
					if slices.Equal(last.Prefixes(), s.List.Prefixes()) {
						continue
					}
					if !s.List.Created.After(last.Created) {
						return fmt.Errorf("%s: %s changed at %s, not after its previous version of %s", f.name, s.Name, s.List.Created, last.Created)
					}
				}
				lists[src] = append(prev, s.List)
			}
		}
		for _, e := range tbl.Sources {
			if l := lists[e.Name]; len(l) > 0 {
				snap.Sources = append(snap.Sources, encode(e.Name, ipverseTarball+" + "+ipverseLatest, l))
			}
		}
	}
	snap.Made = made.UTC()

	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&snap); err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(js.Bytes()); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(out, gz.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(log, "snapgen: wrote %s: %d bytes (%d bytes of JSON), made %s\n", out, gz.Len(), js.Len(), snap.Made.Format(time.RFC3339))
	for _, s := range snap.Sources {
		n := len(s.Versions)
		fmt.Fprintf(log, "  %-32s %3d versions  %s .. %s\n", s.Name, n,
			s.Versions[0].Created.Format(time.RFC3339), s.Versions[n-1].Created.Format(time.RFC3339))
	}
	return nil
}

// readGoogle reads google-history/<name>/*.json and <name>.latest.json.
func readGoogle(dataDir, name string) ([]*verify.List, []verify.SnapshotInput, error) {
	rel := path.Join("google-history", name)
	dir := filepath.Join(dataDir, filepath.FromSlash(rel))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var lists []*verify.List
	var listing strings.Builder
	n := 0
	for _, de := range entries { // ReadDir sorts by name
		if de.IsDir() || !strings.HasSuffix(de.Name(), ".json") || de.Name() == "manifest.json" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, de.Name()))
		if err != nil {
			return nil, nil, err
		}
		l, err := verify.ParsePrefixes(path.Join(rel, de.Name()), data)
		if err != nil {
			return nil, nil, err
		}
		lists = append(lists, l)
		fmt.Fprintf(&listing, "%s %s\n", de.Name(), digest(data))
		n++
	}
	if n == 0 {
		return nil, nil, fmt.Errorf("%s: no list", dir)
	}
	inputs := []verify.SnapshotInput{{Path: rel, Files: n, SHA256: digest([]byte(listing.String())), Upstream: googleUpstream}}
	latest := name + ".latest.json"
	data, err := os.ReadFile(filepath.Join(dataDir, latest))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, nil, err
	default:
		l, err := verify.ParsePrefixes(latest, data)
		if err != nil {
			return nil, nil, err
		}
		lists = append(lists, l)
		inputs = append(inputs, verify.SnapshotInput{Path: latest, SHA256: digest(data), Upstream: googleUpstream})
	}
	return lists, inputs, nil
}

type tarFile struct {
	name string
	time time.Time
	data []byte
}

// readTarball reads the ipverse history: files named <RFC 3339 time>.json.
func readTarball(p string) ([]tarFile, verify.SnapshotInput, error) {
	raw, err := os.ReadFile(p)
	if err != nil {
		return nil, verify.SnapshotInput{}, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, verify.SnapshotInput{}, fmt.Errorf("%s: %w", p, err)
	}
	tr := tar.NewReader(zr)
	var files []tarFile
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, verify.SnapshotInput{}, fmt.Errorf("%s: %w", p, err)
		}
		if h.Typeflag != tar.TypeReg || !strings.HasSuffix(h.Name, ".json") {
			continue
		}
		base := strings.TrimSuffix(path.Base(h.Name), ".json")
		t, err := time.Parse(time.RFC3339, base)
		if err != nil {
			return nil, verify.SnapshotInput{}, fmt.Errorf("%s: %s: the file name is not a time: %w", p, h.Name, err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, verify.SnapshotInput{}, fmt.Errorf("%s: %s: %w", p, h.Name, err)
		}
		files = append(files, tarFile{name: ipverseTarball + ":" + h.Name, time: t.UTC(), data: data})
	}
	if len(files) == 0 {
		return nil, verify.SnapshotInput{}, fmt.Errorf("%s: no file", p)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].time.Before(files[j].time) })
	return files, verify.SnapshotInput{Path: ipverseTarball, Files: len(files), SHA256: digest(raw), Upstream: ipverseUpstream}, nil
}

// dedupe sorts lists by creation time and keeps the first of each run of
// lists with the same prefix set.
func dedupe(lists []*verify.List) []*verify.List {
	slices.SortStableFunc(lists, func(a, b *verify.List) int { return a.Created.Compare(b.Created) })
	var out []*verify.List
	for _, l := range lists {
		if n := len(out); n > 0 && slices.Equal(out[n-1].Prefixes(), l.Prefixes()) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// encode writes the versions of a source as deltas.
func encode(name, input string, lists []*verify.List) snapshotSource {
	s := snapshotSource{Name: name, Input: input}
	var prev []string
	for _, l := range lists {
		cur := make([]string, 0, l.Len())
		for _, p := range l.Prefixes() {
			cur = append(cur, p.String())
		}
		v := snapshotVersion{Created: l.Created.UTC()}
		v.Add, v.Remove = diff(prev, cur)
		s.Versions = append(s.Versions, v)
		prev = cur
	}
	return s
}

// diff returns what is in b and not in a, and what is in a and not in b,
// in the order of each.
func diff(a, b []string) (add, remove []string) {
	inA := make(map[string]bool, len(a))
	for _, s := range a {
		inA[s] = true
	}
	inB := make(map[string]bool, len(b))
	for _, s := range b {
		inB[s] = true
		if !inA[s] {
			add = append(add, s)
		}
	}
	for _, s := range a {
		if !inB[s] {
			remove = append(remove, s)
		}
	}
	return add, remove
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
