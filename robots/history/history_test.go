package history

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeFiles creates files (relative path -> content) under a new temporary
// directory and returns it. A path ending in "/" makes a directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// wantAt checks that At(host, t) names the version whose Data is want, or is
// unaudited when want is "".
func wantAt(t *testing.T, h *History, host, at, want string) {
	t.Helper()
	id, ok := h.At(host, mustTime(t, at))
	switch {
	case want == "" && ok:
		t.Errorf("At(%q, %s) = version %d (%s), want unaudited", host, at, id, h.Version(id).Name)
	case want == "":
	case !ok:
		t.Errorf("At(%q, %s) = unaudited, want %q", host, at, want)
	case string(h.Version(id).Data) != want:
		t.Errorf("At(%q, %s) = %q (%s), want %q", host, at, h.Version(id).Data, h.Version(id).Name, want)
	}
}

func TestLoadFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"robots.txt": "User-agent: *\nDisallow: /x\n"})
	h, err := Load(filepath.Join(dir, "robots.txt"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !h.AnyHost() || !slices.Equal(h.Hosts(), []string{""}) || len(h.All()) != 1 {
		t.Fatalf("AnyHost=%v Hosts=%q versions=%d, want true [\"\"] 1", h.AnyHost(), h.Hosts(), len(h.All()))
	}
	if v := h.All()[0]; !v.Start.IsZero() || v.Name != filepath.Join(dir, "robots.txt") {
		t.Errorf("version = %+v, want zero Start and the file's path", v)
	}
	for _, host := range []string{"", "example.com", "other.org:8080"} {
		for _, at := range []string{"0001-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2026-10-01T00:00:00Z", "9999-12-31T23:59:59Z"} {
			wantAt(t, h, host, at, "User-agent: *\nDisallow: /x\n")
		}
	}
	hi, ok := h.Lookup("anything")
	if !ok {
		t.Fatal("Lookup: no host")
	}
	if id, ok := h.AtMicros(hi, math.MinInt64); !ok || id != 0 {
		t.Errorf("AtMicros(MinInt64) = %d, %v; want 0, true", id, ok)
	}

	// With --host, the file is the history of that host only.
	h, err = Load(filepath.Join(dir, "robots.txt"), Options{Host: "Example.COM:443"})
	if err != nil {
		t.Fatal(err)
	}
	if h.AnyHost() || !slices.Equal(h.Hosts(), []string{"example.com"}) {
		t.Fatalf("AnyHost=%v Hosts=%q, want false [example.com]", h.AnyHost(), h.Hosts())
	}
	wantAt(t, h, "", "2026-10-01T00:00:00Z", "User-agent: *\nDisallow: /x\n")
	wantAt(t, h, "EXAMPLE.com.", "2026-10-01T00:00:00Z", "User-agent: *\nDisallow: /x\n")
	wantAt(t, h, "www.example.com", "2026-10-01T00:00:00Z", "")
}

func TestFromBytes(t *testing.T) {
	h, err := FromBytes("-", []byte("User-agent: *\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantAt(t, h, "a.example", "2000-01-01T00:00:00Z", "User-agent: *\n")
	if h.Version(0).Name != "-" {
		t.Errorf("Name = %q, want -", h.Version(0).Name)
	}
}

func TestLoadFlatDir(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"2026-10-01T00:00:00Z.txt": "v1",
		"2026-10-10.txt":           "v2",
		"20261020T120000Z.TXT":     "v3",
		"manifest.json":            "{}",
		"README.md":                "notes",
		".DS_Store":                "junk",
	})
	h, err := Load(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	vs := h.Versions("")
	var got []string
	for i, v := range vs {
		if v.ID != i {
			t.Errorf("version %d has ID %d", i, v.ID)
		}
		got = append(got, string(v.Data)+"@"+v.Start.Format(time.RFC3339))
	}
	want := []string{"v1@2026-10-01T00:00:00Z", "v2@2026-10-10T00:00:00Z", "v3@2026-10-20T12:00:00Z"}
	if !slices.Equal(got, want) {
		t.Errorf("versions = %q, want %q", got, want)
	}
	if w := h.Warnings(); len(w) != 3 {
		t.Errorf("warnings = %q, want the 3 skipped files", w)
	}
	for _, c := range []struct{ at, want string }{
		{"1999-01-01T00:00:00Z", ""},
		{"2026-09-30T23:59:59.999999Z", ""},   // just before the first: unaudited
		{"2026-10-01T00:00:00Z", "v1"},        // t == Start
		{"2026-10-09T23:59:59.999999Z", "v1"}, // last microsecond of v1
		{"2026-10-10T00:00:00Z", "v2"},
		{"2026-10-10T02:00:00+02:00", "v2"}, // the same instant in another offset
		{"2026-10-20T11:59:59Z", "v2"},
		{"2026-10-20T12:00:00Z", "v3"},
		{"2099-01-01T00:00:00Z", "v3"},
	} {
		wantAt(t, h, "example.com", c.at, c.want)
		wantAt(t, h, "", c.at, c.want)
	}
}

func TestLoadPerHostDir(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"example.com/2026-10-01T00:00:00Z.txt":     "ex1",
		"example.com/2026-10-15T00:00:00Z.txt":     "ex2",
		"example.com/manifest.json":                "{}",
		"www.example.com/2026-09-01T00:00:00Z.txt": "www1",
		"Shop.Example.org/2026-10-05.txt":          "shop1",
		"README.md":                                "about",
	})
	h, err := Load(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"example.com", "shop.example.org", "www.example.com"}; !slices.Equal(h.Hosts(), want) {
		t.Fatalf("Hosts = %q, want %q", h.Hosts(), want)
	}
	if h.AnyHost() {
		t.Error("AnyHost = true for a per-host layout")
	}
	for i, v := range h.All() {
		if v.ID != i {
			t.Errorf("All()[%d].ID = %d", i, v.ID)
		}
	}
	for _, c := range []struct{ host, at, want string }{
		{"example.com", "2026-09-15T00:00:00Z", ""},
		{"example.com", "2026-10-01T00:00:00Z", "ex1"},
		{"EXAMPLE.COM", "2026-10-14T00:00:00Z", "ex1"},
		{"example.com:8080", "2026-10-15T00:00:00Z", "ex2"},
		{"example.com.", "2026-10-16T00:00:00Z", "ex2"},
		{"www.example.com", "2026-09-15T00:00:00Z", "www1"}, // www. is its own host
		{"www.example.com", "2026-10-16T00:00:00Z", "www1"},
		{"shop.example.org", "2026-10-05T00:00:00Z", "shop1"},
		{"unknown.example", "2026-10-16T00:00:00Z", ""}, // not in SRC: unaudited
		{"", "2026-10-16T00:00:00Z", ""},                // several hosts, no --host: unaudited
	} {
		wantAt(t, h, c.host, c.at, c.want)
	}
	if w := h.Warnings(); len(w) != 2 {
		t.Errorf("warnings = %q, want manifest.json and README.md", w)
	}

	h, err = Load(dir, Options{Host: "WWW.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	wantAt(t, h, "", "2026-10-16T00:00:00Z", "www1")
	wantAt(t, h, "example.com", "2026-10-16T00:00:00Z", "ex2")

	if _, err := Load(dir, Options{Host: "nowhere.example"}); err == nil || !strings.Contains(err.Error(), "nowhere.example") {
		t.Errorf("--host not in SRC: err = %v, want one naming the host", err)
	}

	// A single host directory is the default for lines without a host.
	one := writeFiles(t, map[string]string{"example.com/2026-10-01.txt": "only"})
	h, err = Load(one, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantAt(t, h, "", "2026-10-02T00:00:00Z", "only")
	wantAt(t, h, "example.com", "2026-10-02T00:00:00Z", "only")
	wantAt(t, h, "other.example", "2026-10-02T00:00:00Z", "")
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		sub   string // appended to the directory to make src
		want  []string
	}{
		{"bad name", map[string]string{"2026-10-01T00:00:00Z.txt": "a", "robots.txt": "b"}, "", []string{"robots.txt", "file name"}},
		{"bad date", map[string]string{"2026-13-01.txt": "a"}, "", []string{"2026-13-01.txt"}},
		{"bad time", map[string]string{"2026-10-01T25:00:00Z.txt": "a"}, "", []string{"2026-10-01T25:00:00Z.txt"}},
		{"no zone", map[string]string{"2026-10-01T00:00:00.txt": "a"}, "", []string{"2026-10-01T00:00:00.txt"}},
		{"empty dir", map[string]string{"x/": ""}, "x", []string{"no version files"}},
		{"only junk", map[string]string{"manifest.json": "{}"}, "", []string{"no version files"}},
		{"mixed", map[string]string{"2026-10-01.txt": "a", "example.com/2026-10-01.txt": "b"}, "", []string{"mixed layout", "2026-10-01.txt", "example.com"}},
		{"same instant", map[string]string{"2026-10-01.txt": "a", "2026-10-01T00:00:00Z.txt": "b"}, "", []string{"same instant", "2026-10-01.txt", "2026-10-01T00:00:00Z.txt"}},
		{"same instant offset", map[string]string{"2026-10-01T02:00:00+02:00.txt": "a", "2026-10-01T00:00:00Z.txt": "b"}, "", []string{"same instant"}},
		{"nested", map[string]string{"example.com/2026-10-01.txt": "a", "example.com/old/2025-01-01.txt": "b"}, "", []string{filepath.Join("example.com", "old")}},
		{"empty host dir", map[string]string{"example.com/2026-10-01.txt": "a", "example.org/": ""}, "", []string{"example.org", "no version files"}},
		{"same host twice", map[string]string{"example.com/2026-10-01.txt": "a", "EXAMPLE.com./2026-10-02.txt": "b"}, "", []string{"same host"}},
		{"bad name in host dir", map[string]string{"example.com/latest.txt": "a"}, "", []string{filepath.Join("example.com", "latest.txt")}},
		{"missing", nil, "nope", []string{"nope"}},
		{"git without PATH", nil, "git:", []string{"git:REPO//PATH"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, c.files)
			src := dir
			if c.sub == "git:" {
				src = "git:" + dir
			} else if c.sub != "" {
				src = filepath.Join(dir, c.sub)
			}
			h, err := Load(src, Options{})
			if err == nil {
				t.Fatalf("Load succeeded with %d versions, want an error", len(h.All()))
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "2026-10-01.txt")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	if _, err := Load(dir, Options{}); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("FIFO version: err = %v, want one naming %s", err, p)
	}
	if _, err := Load(p, Options{}); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("FIFO file: err = %v, want one naming %s", err, p)
	}
}

func TestParseInstant(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2026-10-01T00:00:00Z", "2026-10-01T00:00:00Z"},
		{"2026-10-01T02:30:00+02:00", "2026-10-01T00:30:00Z"},
		{"2026-10-01T00:00:00.123456789Z", "2026-10-01T00:00:00.123456Z"},
		{"2026-10-01", "2026-10-01T00:00:00Z"},
		{"20261001T123456Z", "2026-10-01T12:34:56Z"},
		{"2024-02-29", "2024-02-29T00:00:00Z"},
	} {
		got, err := ParseInstant(c.in)
		if err != nil {
			t.Errorf("ParseInstant(%q): %v", c.in, err)
			continue
		}
		if s := got.Format(time.RFC3339Nano); s != c.want || got.Location() != time.UTC {
			t.Errorf("ParseInstant(%q) = %s (%v), want %s UTC", c.in, s, got.Location(), c.want)
		}
	}
	for _, in := range []string{"", "robots", "2026-10-1", "2025-02-29", "2026-10-01T00:00:00", "2026-10-01 00:00:00Z",
		"20261001", "20261001T123456", "20261001t123456z", "2026-10-01T00:00:00Zjunk", "latest", "2026-10-01TZ"} {
		if got, err := ParseInstant(in); err == nil {
			t.Errorf("ParseInstant(%q) = %v, want an error", in, got)
		}
	}
}

func TestNormalizeHost(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"example.com", "example.com"},
		{"Example.COM", "example.com"},
		{"example.com:8080", "example.com"},
		{"example.com.", "example.com"},
		{"EXAMPLE.com.:443", "example.com"},
		{"www.example.com", "www.example.com"},
		{" example.com ", "example.com"},
		{"[2001:DB8::1]:8443", "2001:db8::1"},
		{"[2001:db8::1]", "2001:db8::1"},
		{"2001:db8::1", "2001:db8::1"},
		{"192.0.2.1:80", "192.0.2.1"},
		{"", ""},
		{".", ""},
		{":80", ""},
		{"Bücher.DE", "bücher.de"},
	} {
		if got := NormalizeHost(c.in); got != c.want {
			t.Errorf("NormalizeHost(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := NormalizeHost(c.want); got != c.want {
			t.Errorf("NormalizeHost is not idempotent on %q: %q", c.want, got)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = NormalizeHost("example.com:8080") }); n != 0 {
		t.Errorf("NormalizeHost of a lowercase host allocates %v times", n)
	}
}

func TestCursorMatchesAtMicros(t *testing.T) {
	files := map[string]string{}
	base := mustTime(t, "2026-10-01T00:00:00Z")
	for i := range 50 {
		files[base.Add(time.Duration(i*i)*time.Hour).Format(time.RFC3339)+".txt"] = "v"
	}
	h, err := Load(writeFiles(t, files), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	c := h.Cursor(0)
	lo, span := base.UnixMicro()-int64(48*time.Hour/time.Microsecond), int64(2600*time.Hour/time.Microsecond)
	for i := range 20000 {
		us := lo + r.Int64N(span)
		if i%3 == 0 { // exact boundaries and their neighbours
			v := h.All()[r.IntN(len(h.All()))]
			us = v.Start.UnixMicro() + int64(r.IntN(3)-1)
		}
		id1, ok1 := h.AtMicros(0, us)
		id2, ok2 := c.At(us)
		if id1 != id2 || ok1 != ok2 {
			t.Fatalf("at %d: AtMicros = %d,%v; Cursor = %d,%v", us, id1, ok1, id2, ok2)
		}
		if ok1 && (h.Version(id1).Start.UnixMicro() > us || (id1+1 < len(h.All()) && h.Version(id1+1).Start.UnixMicro() <= us)) {
			t.Fatalf("at %d: version %d is not the newest with Start <= t", us, id1)
		}
	}
	for _, us := range []int64{math.MinInt64, math.MaxInt64} {
		id1, ok1 := h.AtMicros(0, us)
		id2, ok2 := c.At(us)
		if id1 != id2 || ok1 != ok2 {
			t.Errorf("at %d: AtMicros = %d,%v; Cursor = %d,%v", us, id1, ok1, id2, ok2)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = h.AtMicros(0, base.UnixMicro()+12345) }); n != 0 {
		t.Errorf("AtMicros allocates %v times", n)
	}
}

// TestManifestNotBefore checks that a versions.json beside the version files
// (as crawlaudit history fetch writes it) is read, not warned about, and
// gives each version its not_before; a malformed one is an error naming the
// file and line.
func TestManifestNotBefore(t *testing.T) {
	manifest := `{"host": "example.com", "archive": "https://web.archive.org",
 "versions": [
  {"file": "2026-07-03T10:00:00Z.txt", "first_seen": "2026-07-03T10:00:00Z", "last_seen": "2026-08-01T00:00:00Z", "not_before": null, "status": 200, "digest": "A", "bytes": 1, "capture": "x", "captures": 2},
  {"file": "2026-08-20T06:30:00Z.txt", "first_seen": "2026-08-20T06:30:00Z", "last_seen": "2026-08-20T06:30:00Z", "not_before": "2026-08-01T00:00:00Z", "status": 404, "digest": "B", "bytes": 0, "capture": "y", "captures": 1}
 ],
 "unversioned": [], "a_later_field": 1}`
	for _, layout := range []string{"flat", "per-host"} {
		prefix := ""
		if layout == "per-host" {
			prefix = "example.com/"
		}
		dir := writeFiles(t, map[string]string{
			prefix + "2026-07-03T10:00:00Z.txt": "User-agent: *\nDisallow: /a\n",
			prefix + "2026-08-20T06:30:00Z.txt": "",
			prefix + "versions.json":            manifest,
		})
		h, err := Load(dir, Options{})
		if err != nil {
			t.Fatalf("%s: %v", layout, err)
		}
		if w := h.Warnings(); len(w) != 0 {
			t.Errorf("%s: warnings %q, want none", layout, w)
		}
		vs := h.All()
		if len(vs) != 2 || !vs[0].NotBefore.IsZero() || !vs[1].NotBefore.Equal(mustTime(t, "2026-08-01T00:00:00Z")) {
			t.Errorf("%s: NotBefore = %v, %v; want zero, 2026-08-01", layout, vs[0].NotBefore, vs[1].NotBefore)
		}
	}

	dir := writeFiles(t, map[string]string{
		"2026-07-03T10:00:00Z.txt": "",
		"versions.json":            "{\"host\": \"example.com\",\n \"versions\": [\n  {\"file\": 3}]}",
	})
	_, err := Load(dir, Options{})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "versions.json")+":3:") {
		t.Errorf("malformed versions.json: error %v, want one naming %s:3", err, filepath.Join(dir, "versions.json"))
	}

	dir = writeFiles(t, map[string]string{
		"2026-07-03T10:00:00Z.txt": "",
		"versions.json":            `{"versions": [{"file": "2026-07-03T10:00:00Z.txt", "not_before": "2026-07-04T00:00:00Z"}]}`,
	})
	if _, err := Load(dir, Options{}); err == nil || !strings.Contains(err.Error(), "not_before") {
		t.Errorf("not_before after the file's instant: error %v, want one naming not_before", err)
	}
}
