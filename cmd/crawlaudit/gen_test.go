package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the command line and returns its exit status and output.
func runGenCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestGenSample runs the command written in testdata/sample/README.md into a
// temporary directory and checks that every committed file of the sample is
// byte-identical to what it produces.
func TestGenSample(t *testing.T) {
	sample := filepath.Join("..", "..", "testdata", "sample")
	readme, err := os.ReadFile(filepath.Join(sample, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmdline string
	for line := range strings.Lines(string(readme)) {
		if strings.HasPrefix(line, "crawlaudit gen ") && strings.Contains(line, "testdata/sample/") {
			cmdline = strings.TrimSpace(line)
			break
		}
	}
	if cmdline == "" {
		t.Fatal("testdata/sample/README.md has no line starting with \"crawlaudit gen\" that writes testdata/sample/")
	}
	tmp := t.TempDir()
	args := strings.Fields(strings.ReplaceAll(cmdline, "testdata/sample", tmp))[1:]
	if code, _, stderr := runGenCLI(args...); code != 0 {
		t.Fatalf("%s: exit %d: %s", cmdline, code, stderr)
	}
	var n int
	err = filepath.WalkDir(tmp, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(tmp, path)
		got, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		committed, err := os.ReadFile(filepath.Join(sample, rel))
		if err != nil {
			t.Errorf("the command writes %s, which is not committed: %v", rel, err)
			return nil
		}
		if !bytes.Equal(got, committed) {
			t.Errorf("testdata/sample/%s differs from what %q writes: rerun the command and commit", rel, cmdline)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("the command wrote %d files, want the log and three robots.txt versions", n)
	}
}

func TestGen(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sub", "access.log.gz")
	code, _, stderr := runGenCLI("gen", "--lines", "1234", "--seed", "3", "--from", "2026-10-24T00:00:00Z",
		"--to", "2026-10-26", "--format", "w3c", "--gzip", "--host", "a.example", "--host", "b.example",
		"--robots-dir", filepath.Join(dir, "robots"), "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	lines := 0
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(line, "#") {
			lines++
		}
	}
	if lines != 1234 || !strings.HasPrefix(text, "#Software: ") || !strings.Contains(text, " a.example ") || !strings.Contains(text, " b.example ") {
		t.Errorf("got %d request lines (want 1234), a W3C header and both hosts:\n%.500s", lines, text)
	}
	for _, h := range []string{"a.example", "b.example"} {
		for _, v := range []string{"2026-09-15T00:00:00Z.txt", "2026-10-10T12:00:00Z.txt", "2026-10-20T00:00:00Z.txt"} {
			b, err := os.ReadFile(filepath.Join(dir, "robots", h, v))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "Sitemap: https://"+h+"/sitemap.xml") {
				t.Errorf("%s/%s does not name its host in Sitemap", h, v)
			}
		}
	}
	// -o - writes to stdout, the same bytes for the same flags.
	code1, out1, _ := runGenCLI("gen", "--lines", "500", "-o", "-")
	code2, out2, _ := runGenCLI("gen", "--lines", "500", "-o", "-")
	if code1 != 0 || code2 != 0 || out1 != out2 || strings.Count(out1, "\n") != 500 {
		t.Errorf("gen -o -: exits %d %d, %d lines, identical %v", code1, code2, strings.Count(out1, "\n"), out1 == out2)
	}
}

func TestGenUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"gen"},
		{"gen", "-o", "-", "--from", "October"},
		{"gen", "-o", "-", "--to", "2026-10-01T00:30:00Z", "--from", "2026-10-01"},
		{"gen", "-o", "-", "--format", "xml"},
		{"gen", "-o", "-", "--lines", "-5"},
		{"gen", "-o", "-", "--tz", "Mars/Olympus"},
		{"gen", "-o", "-", "--host", "../x"},
		{"gen", "-o", "-", "extra-arg"},
	} {
		code, stdout, stderr := runGenCLI(args...)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "crawlaudit: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and a one-line message", args, code, stdout, stderr)
		}
	}
}

func TestGenHelp(t *testing.T) {
	code, out, _ := runGenCLI("gen", "--help")
	if code != 0 || !strings.Contains(out, "Developer tool") || !strings.Contains(out, "Examples:") ||
		!strings.Contains(out, "--robots-dir") {
		t.Errorf("gen --help: exit %d:\n%s", code, out)
	}
}
