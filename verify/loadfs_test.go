package verify

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"
	"time"
)

// TestLoadFS checks that LoadFS over a copy of a --ranges directory (on
// disk, or in memory with the files' modification times, as
// crawlaudit-beam's workers get it) loads what LoadDir loads: the same
// sources, versions, refusals and origins (named after the directory).
func TestLoadFS(t *testing.T) {
	dir := t.TempDir()
	writeRealGoogle(t, dir)
	writeFiles(t, dir, map[string]string{
		"README.txt":                        "not a source",
		"bingbot/2026-04-11T16:28:41Z.json": `{"creationTime": "2024-01-03T10:00:00.121331", "prefixes": [{"ipv4Prefix": "157.55.39.0/24"}]}`,
		"bingbot/2026-07-01T00:00:00Z.json": `{"creationTime": "2026-07-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "207.46.13.0/24"}]}`,
		"bingbot/.tmp-123.json":             `garbage`,
		"ahrefs/2026-08-20T17-36-54Z.json":  `{"prefixes": [{"ipv4Prefix": "5.39.1.224/27"}]}`,
		// refused: it keeps too little of the real list before it
		"google-common-crawlers/2026-10-01T00:00:00Z.json": `{"creationTime": "2026-10-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "203.0.114.0/24"}]}`,
	})
	want, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	mem := fstest.MapFS{}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		mem[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data, ModTime: fi.ModTime(), Mode: 0o644}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, fsys := range map[string]fs.FS{"os.DirFS": os.DirFS(dir), "in memory": mem} {
		got, err := LoadFS(fsys, dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got.Info(), want.Info()) {
			t.Errorf("%s: Info\n got %+v\nwant %+v", name, got.Info(), want.Info())
		}
		for _, c := range []struct {
			bot, addr string
		}{{"bingbot", "157.55.39.1"}, {"bingbot", "207.46.13.5"}, {"bingbot", "203.0.114.9"}, {"Googlebot", "203.0.114.9"}, {"AhrefsBot", "5.39.1.225"}} {
			for _, at := range []string{"2026-05-01T00:00:00Z", "2026-10-15T00:00:00Z"} {
				tm, err := time.Parse(time.RFC3339, at)
				if err != nil {
					t.Fatal(err)
				}
				when := us(tm)
				if g, w := got.Check(c.bot, addr(c.addr), when), want.Check(c.bot, addr(c.addr), when); !reflect.DeepEqual(g, w) {
					t.Errorf("%s: Check(%s, %s, %s) = %+v, LoadDir's %+v", name, c.bot, c.addr, at, g, w)
				}
			}
		}
	}
	if _, err := LoadFS(fstest.MapFS{"nosuch/2026-10-01T00:00:00Z.json": &fstest.MapFile{Data: []byte("{}")}}, "ranges"); err == nil {
		t.Error("an unknown source directory was accepted")
	}
}
